import { CUSTOMER_STATUSES, listCustomersQuerySchema, type Customer } from '@sf/contract/customers-list';
import { formatPhoneForReading } from '@sf/contract/italian';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { TextLink } from '../../../components/ui/in-app-link.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { TruncatedText } from '../../../components/ui/truncated-text.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { useMountedOnceOpened } from '../../../hooks/use-mounted-once-opened.ts';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { CUSTOMERS_PATH, useCustomers } from '../api/get-customers.ts';
import { cardHolderOf } from '../lib/card-holder.ts';
import { customerName } from '../lib/customer-name.ts';
import { CUSTOMER_STATUS_COLORS } from './customer-status-badge.tsx';
import { FigureFilter } from './figure-filter.tsx';

type SortField = ListParams<typeof listCustomersQuerySchema>['sort'];

// The form (its schemas, the provinces, the phone rules) loads when the drawer first opens, not with the list.
const CustomerFormDrawer = lazy(() => import('./customer-form-drawer.tsx').then((module) => ({ default: module.CustomerFormDrawer })));

const getRowId = (customer: Customer) => customer.id;

type Props = {
  /** The programs to filter by, with their tiers' names (composed by the route from the programs feature). */
  programOptions: { value: string; label: string; tiers?: string[] }[];
  /** Where a customer's page lives. */
  hrefFor: (id: string) => string;
};

/** `/customers` — Anagrafiche → Clienti: search, filters, export and the new-customer drawer (`?customer=new`). */
export function CustomersPage({ programOptions, hrefFor }: Props) {
  const { t } = useTranslation('customers');
  const format = useFormatters();
  const navigate = useNavigate();
  const list = useList(listCustomersQuerySchema, useCustomers);
  const drawer = useDrawerParam('customer');
  // The tier filter offers the chosen program's tiers, or every program's when none is chosen.
  const programId = list.params.programId;
  const tierOptions = useMemo(() => {
    const programs = programOptions.filter((program) => programId === undefined || program.value === programId);
    return [...new Set(programs.flatMap((program) => program.tiers ?? []))].sort((a, b) => a.localeCompare(b)).map((name) => ({ value: name, label: name }));
  }, [programOptions, programId]);
  const hasDrawer = useMountedOnceOpened(drawer.target === 'new');
  // A card scanned at the counter (or its number typed whole) into this search names one customer: their
  // page opens. Only for a search made here: Back (or a link) to the list with that search shows the list.
  const [searchOnArrival] = useState(list.params.q);
  const cardHolder = list.params.q !== searchOnArrival ? cardHolderOf(list.params.q, list.query.data?.items) : undefined;
  useEffect(() => {
    if (cardHolder) void navigate(hrefFor(cardHolder.id));
  }, [cardHolder, navigate, hrefFor]);

  const columns = useMemo<DataTableColumn<Customer, SortField>[]>(
    () => [
      {
        id: 'name',
        isName: true,
        header: t('columns.name'),
        sortField: 'name',
        firstOrder: 'asc',
        cell: (customer) => (
          <TextLink to={hrefFor(customer.id)} isStrong>
            {customerName(customer, t, 'last')}
          </TextLink>
        ),
      },
      { id: 'cardNumber', header: t('columns.cardNumber'), sortField: 'cardNumber', firstOrder: 'asc', cell: (customer) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{customer.cardNumber}</span> },
      {
        id: 'email',
        header: t('columns.email'),
        sortField: 'email',
        firstOrder: 'asc',
        // A fifth of the table (~215 px at 1366), a longer address cut and whole on hover: an address
        // never pushes the list past the screen (issue 31). A quarter showed the demo's longest whole, but
        // left the names, cities and "Non concesso" on two lines: six customers above the fold, not ten.
        width: '20%',
        cell: (customer) => (customer.email ? <TruncatedText text={customer.email} fill /> : '—'),
      },
      // Written as people read it ("333 123 4567"), on one line: stored (and exported) as E.164.
      { id: 'phone', header: t('columns.phone'), isWhole: true, cell: (customer) => (customer.phone ? formatPhoneForReading(customer.phone) : '—') },
      { id: 'city', header: t('columns.city'), sortField: 'city', firstOrder: 'asc', isWhole: true, cell: (customer) => (customer.city ? `${customer.city}${customer.province ? ` (${customer.province})` : ''}` : '—') },
      {
        id: 'marketing',
        header: t('columns.marketing'),
        isWhole: true,
        // "Sì"/"No" under "Marketing": "Non concesso" took the width the customer's name needed on one line.
        cell: (customer) => (customer.consents.marketing?.granted ? t('lists:yes') : t('lists:no')),
      },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (customer) => <StatusBadge color={CUSTOMER_STATUS_COLORS[customer.status]}>{t(`status.${customer.status}`)}</StatusBadge> },
      { id: 'createdAt', header: t('columns.createdAt'), sortField: 'createdAt', isWhole: true, cell: (customer) => format.date(customer.createdAt) },
    ],
    [t, format, hrefFor],
  );

  return (
    <ListPage
      list={list}
      texts={{ title: t('title'), caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle'), searchPlaceholder: t('searchPlaceholder') }}
      exportPath={CUSTOMERS_PATH}
      create={{ permission: 'customers:write', href: drawer.hrefFor('new'), label: t('create') }}
      filters={[
        { type: 'select', field: 'status', label: t('filters.status'), allLabel: t('filters.allStatuses'), options: CUSTOMER_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })), width: 160 },
        { type: 'select', field: 'programId', label: t('filters.program'), allLabel: t('filters.allPrograms'), options: programOptions, width: 200 },
        { type: 'select', field: 'tier', label: t('filters.tier'), allLabel: t('filters.allTiers'), options: tierOptions, width: 160 },
        {
          type: 'boolean',
          field: 'marketingConsent',
          label: t('filters.marketing'),
          choices: [
            { value: 'any', label: t('filters.any'), is: undefined },
            { value: 'true', label: t('filters.granted'), is: true },
            { value: 'false', label: t('filters.notGranted'), is: false },
          ],
          width: 180,
        },
        { type: 'custom', key: 'figure', node: <FigureFilter params={list.params} update={list.update} /> },
      ]}
      columns={columns}
      getRowId={getRowId}
      minWidth={1000}
    >
      {hasDrawer ? (
        <Suspense fallback={null}>
          <CustomerFormDrawer
            param="customer"
            isOpen={drawer.target === 'new'}
            customer={null}
            onClose={drawer.close}
            onSaved={(customer) => void navigate(hrefFor(customer.id))}
          />
        </Suspense>
      ) : null}
    </ListPage>
  );
}
