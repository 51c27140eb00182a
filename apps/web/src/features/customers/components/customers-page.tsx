import { Anchor, Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { CUSTOMER_STATUSES, listCustomersQuerySchema, type Customer } from '@sf/contract/customers';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Can } from '../../../components/can.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ExportButton } from '../../../components/ui/export-button.tsx';
import { ListSearchInput } from '../../../components/ui/list-search-input.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { toApiQuery, useListParams, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { CUSTOMERS_PATH, useCustomers } from '../api/get-customers.ts';
import { CustomerFormDrawer } from './customer-form-drawer.tsx';
import { CustomerStatusBadge } from './customer-status-badge.tsx';

type SortField = ListParams<typeof listCustomersQuerySchema>['sort'];

const getRowId = (customer: Customer) => customer.id;

type Props = {
  /** The programs to filter by (composed by the route from the programs feature). */
  programOptions: { value: string; label: string }[];
  /** Where a customer's page lives. */
  hrefFor: (id: string) => string;
};

/** `/customers` — Anagrafiche → Clienti: search, filters, export and the new-customer drawer (`?customer=new`). */
export function CustomersPage({ programOptions, hrefFor }: Props) {
  const { t } = useTranslation('customers');
  const format = useFormatters();
  const navigate = useNavigate();
  const { params, update, isFiltered } = useListParams(listCustomersQuerySchema);
  const drawer = useDrawerParam('customer');
  const query = useCustomers(toApiQuery(params));

  const columns = useMemo<DataTableColumn<Customer, SortField>[]>(
    () => [
      {
        id: 'name',
        header: t('columns.name'),
        sortField: 'name',
        firstOrder: 'asc',
        cell: (customer) => (
          <Anchor component={Link} to={hrefFor(customer.id)} fw={500}>
            {`${customer.lastName} ${customer.firstName}`}
          </Anchor>
        ),
      },
      { id: 'cardNumber', header: t('columns.cardNumber'), sortField: 'cardNumber', firstOrder: 'asc', cell: (customer) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{customer.cardNumber}</span> },
      { id: 'email', header: t('columns.email'), sortField: 'email', firstOrder: 'asc', cell: (customer) => customer.email ?? '—' },
      { id: 'phone', header: t('columns.phone'), cell: (customer) => customer.phone ?? '—' },
      { id: 'city', header: t('columns.city'), sortField: 'city', firstOrder: 'asc', cell: (customer) => (customer.city ? `${customer.city}${customer.province ? ` (${customer.province})` : ''}` : '—') },
      {
        id: 'marketing',
        header: t('columns.marketing'),
        cell: (customer) => (customer.consents.marketing?.granted ? t('filters.granted') : t('filters.notGranted')),
      },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (customer) => <CustomerStatusBadge status={customer.status} /> },
      { id: 'createdAt', header: t('columns.createdAt'), sortField: 'createdAt', cell: (customer) => format.date(customer.createdAt) },
    ],
    [t, format, hrefFor],
  );

  const marketing = params.marketingConsent === undefined ? 'any' : params.marketingConsent ? 'true' : 'false';
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <Group gap="sm">
          <ExportButton path={CUSTOMERS_PATH} params={params} />
          <Can permission="customers:write">
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
          data={[{ value: 'all', label: t('filters.allStatuses') }, ...CUSTOMER_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))]}
          value={params.status ?? 'all'}
          onChange={(value) => update({ status: value && value !== 'all' ? (value as Customer['status']) : undefined })}
          allowDeselect={false}
          w={160}
        />
        <Select
          label={t('filters.program')}
          data={[{ value: 'all', label: t('filters.allPrograms') }, ...programOptions]}
          value={params.programId ?? 'all'}
          onChange={(value) => update({ programId: value && value !== 'all' ? value : undefined })}
          allowDeselect={false}
          w={200}
        />
        <TextInput
          label={t('filters.tier')}
          defaultValue={params.tier ?? ''}
          key={params.tier ?? ''}
          onBlur={(event) => update({ tier: event.currentTarget.value.trim() || undefined })}
          onKeyDown={(event) => {
            if (event.key === 'Enter') update({ tier: event.currentTarget.value.trim() || undefined });
          }}
          w={140}
        />
        <Select
          label={t('filters.marketing')}
          data={[
            { value: 'any', label: t('filters.any') },
            { value: 'true', label: t('filters.granted') },
            { value: 'false', label: t('filters.notGranted') },
          ]}
          value={marketing}
          onChange={(value) => update({ marketingConsent: value === 'true' ? true : value === 'false' ? false : undefined })}
          allowDeselect={false}
          w={180}
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
        minWidth={1000}
      />
      <CustomerFormDrawer
        isOpen={drawer.target === 'new'}
        customer={null}
        onClose={drawer.close}
        onSaved={(customer) => void navigate(hrefFor(customer.id))}
      />
    </Stack>
  );
}
