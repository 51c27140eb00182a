import { Anchor, Button, Group, Select, Stack, Title } from '@mantine/core';
import { MERCHANT_CATEGORIES, MERCHANT_STATUSES, listMerchantsQuerySchema, type Merchant } from '@sf/contract/merchants';
import { PROVINCES } from '@sf/contract/italian';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Can } from '../../../components/can.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ExportButton } from '../../../components/ui/export-button.tsx';
import { ListSearchInput } from '../../../components/ui/list-search-input.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { toApiQuery, useListParams, type ListParams } from '../../../hooks/use-list-params.ts';
import { MERCHANTS_PATH, useMerchants } from '../api/get-merchants.ts';
import { MerchantFormDrawer } from './merchant-form-drawer.tsx';
import { MerchantStatusBadge } from './merchant-status-badge.tsx';

type SortField = ListParams<typeof listMerchantsQuerySchema>['sort'];

const getRowId = (merchant: Merchant) => merchant.id;

/** `/merchants` — Anagrafiche → Esercenti: the list, its filters and export, and the form drawer (`?merchant=`). */
export function MerchantsPage() {
  const { t } = useTranslation('merchants');
  const { params, update, isFiltered } = useListParams(listMerchantsQuerySchema);
  const drawer = useDrawerParam('merchant');
  const query = useMerchants(toApiQuery(params));

  const columns = useMemo<DataTableColumn<Merchant, SortField>[]>(
    () => [
      {
        id: 'legalName',
        header: t('columns.legalName'),
        sortField: 'legalName',
        firstOrder: 'asc',
        cell: (merchant) => (
          <Anchor component={Link} to={drawer.hrefFor(merchant.id)} fw={500}>
            {merchant.legalName}
          </Anchor>
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
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <Group gap="sm">
          <ExportButton path={MERCHANTS_PATH} params={params} />
          <Can permission="merchants:write">
            <Button component={Link} to={drawer.hrefFor('new')} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('create')}
            </Button>
          </Can>
        </Group>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <ListSearchInput value={params.q} onSearch={(q) => update({ q }, { isReplace: true })} placeholder={t('searchPlaceholder')} />
        <Select
          label={t('filters.status')}
          data={[{ value: 'all', label: t('filters.allStatuses') }, ...MERCHANT_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))]}
          value={params.status ?? 'all'}
          onChange={(value) => update({ status: value && value !== 'all' ? (value as Merchant['status']) : undefined })}
          allowDeselect={false}
          w={170}
        />
        <Select
          label={t('filters.category')}
          data={[{ value: 'all', label: t('filters.allCategories') }, ...MERCHANT_CATEGORIES.map((value) => ({ value, label: t(`category.${value}`) }))]}
          value={params.category ?? 'all'}
          onChange={(value) => update({ category: value && value !== 'all' ? (value as Merchant['category']) : undefined })}
          allowDeselect={false}
          w={190}
        />
        <Select
          label={t('filters.province')}
          data={[{ value: 'all', label: t('filters.allProvinces') }, ...PROVINCES.map((value) => ({ value, label: value }))]}
          value={params.province ?? 'all'}
          onChange={(value) => update({ province: value && value !== 'all' ? value : undefined })}
          allowDeselect={false}
          searchable
          w={170}
        />
      </Group>
      <DataTable
        caption={t('caption')}
        columns={columns}
        query={query}
        params={params}
        onChange={update}
        getRowId={getRowId}
        emptyText={t('empty')}
        isFiltered={isFiltered}
        errorTitle={t('errorTitle')}
        minWidth={900}
      />
      <MerchantFormDrawer target={drawer.target} onClose={drawer.close} onCreated={(id) => drawer.open(id, { isReplace: true })} />
    </Stack>
  );
}
