import { MERCHANT_CATEGORIES, MERCHANT_STATUSES, listMerchantsQuerySchema, type Merchant } from '@sf/contract/merchants';
import { PROVINCES } from '@sf/contract/provinces';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { TextLink } from '../../../components/ui/in-app-link.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { MERCHANTS_PATH, useMerchants } from '../api/get-merchants.ts';
import { MerchantFormDrawer } from './merchant-form-drawer.tsx';
import { MerchantStatusBadge } from './merchant-status-badge.tsx';

type SortField = ListParams<typeof listMerchantsQuerySchema>['sort'];

const getRowId = (merchant: Merchant) => merchant.id;

/** `/merchants` — Anagrafiche → Esercenti: the list, its filters and export, and the form drawer (`?merchant=`). */
export function MerchantsPage() {
  const { t } = useTranslation('merchants');
  const list = useList(listMerchantsQuerySchema, useMerchants);
  const drawer = useDrawerParam('merchant');

  const columns = useMemo<DataTableColumn<Merchant, SortField>[]>(
    () => [
      {
        id: 'legalName',
        isName: true,
        header: t('columns.legalName'),
        sortField: 'legalName',
        firstOrder: 'asc',
        cell: (merchant) => (
          <TextLink to={drawer.hrefFor(merchant.id)} isStrong>
            {merchant.legalName}
          </TextLink>
        ),
      },
      { id: 'signName', header: t('columns.signName'), sortField: 'signName', firstOrder: 'asc', cell: (merchant) => merchant.signName ?? '—' },
      { id: 'vatNumber', header: t('columns.vatNumber'), cell: (merchant) => merchant.vatNumber },
      { id: 'city', header: t('columns.city'), sortField: 'city', firstOrder: 'asc', cell: (merchant) => merchant.address.city },
      { id: 'province', header: t('columns.province'), sortField: 'province', firstOrder: 'asc', cell: (merchant) => merchant.address.province },
      { id: 'category', header: t('columns.category'), sortField: 'category', firstOrder: 'asc', cell: (merchant) => t(`category.${merchant.category}`) },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (merchant) => <MerchantStatusBadge status={merchant.status} /> },
    ],
    [t, drawer.hrefFor],
  );

  return (
    <ListPage
      list={list}
      texts={{ title: t('title'), caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle'), searchPlaceholder: t('searchPlaceholder') }}
      exportPath={MERCHANTS_PATH}
      create={{ permission: 'merchants:write', href: drawer.hrefFor('new'), label: t('create') }}
      filters={[
        { type: 'select', field: 'status', label: t('filters.status'), allLabel: t('filters.allStatuses'), options: MERCHANT_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })), width: 170 },
        { type: 'select', field: 'category', label: t('filters.category'), allLabel: t('filters.allCategories'), options: MERCHANT_CATEGORIES.map((value) => ({ value, label: t(`category.${value}`) })), width: 190 },
        { type: 'select', field: 'province', label: t('filters.province'), allLabel: t('filters.allProvinces'), options: PROVINCES.map((value) => ({ value, label: value })), width: 170, isSearchable: true },
      ]}
      columns={columns}
      getRowId={getRowId}
      minWidth={900}
    >
      <MerchantFormDrawer target={drawer.target} onClose={drawer.close} onCreated={(id) => drawer.open(id, { isReplace: true })} />
    </ListPage>
  );
}
