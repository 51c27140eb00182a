import { Anchor, Button, Group, Select, Stack, Title } from '@mantine/core';
import {
  listPrivacyRequestsQuerySchema,
  PRIVACY_REQUEST_KINDS,
  PRIVACY_REQUEST_STATUSES,
  type PrivacyRequest,
} from '@sf/contract/privacy';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Can } from '../../../components/can.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ExportButton } from '../../../components/ui/export-button.tsx';
import { ListSearchInput } from '../../../components/ui/list-search-input.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { toApiQuery, useListParams, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { PRIVACY_PATH, usePrivacyRequests } from '../api/get-privacy-requests.ts';
import { NewPrivacyRequestDialog, type RenderCustomerPicker } from './new-privacy-request-dialog.tsx';
import { PrivacyRequestDrawer } from './privacy-request-drawer.tsx';
import { customerLabel, DaysLeft, PrivacyStatusBadge } from './privacy-badges.tsx';

type SortField = ListParams<typeof listPrivacyRequestsQuerySchema>['sort'];

type Props = {
  renderCustomerPicker: RenderCustomerPicker;
  /** Where a customer's page (and its form, for rectification) lives. */
  customerHref: (id: string) => string;
  /** The customer's ledger figures, shown beside an erasure (they must not change). */
  renderCustomerFigures?: (customerId: string) => ReactNode;
};

/** `/privacy-requests` — Pages → Richieste privacy: the GDPR queue by deadline, its actions and export. */
export function PrivacyRequestsPage({ renderCustomerPicker, customerHref, renderCustomerFigures }: Props) {
  const { t } = useTranslation('privacy');
  const format = useFormatters();
  const { params, update, isFiltered } = useListParams(listPrivacyRequestsQuerySchema);
  const drawer = useDrawerParam('request');
  const query = usePrivacyRequests(toApiQuery(params));

  const columns = useMemo<DataTableColumn<PrivacyRequest, SortField>[]>(
    () => [
      {
        id: 'kind',
        header: t('columns.kind'),
        sortField: 'kind',
        firstOrder: 'asc',
        cell: (request) => (
          <Anchor component={Link} to={drawer.hrefFor(request.id)} fw={500} aria-label={t('open', { kind: t(`kind.${request.kind}`), customer: customerLabel(request, t('erasedCustomer')) })}>
            {t(`kind.${request.kind}`)}
          </Anchor>
        ),
      },
      { id: 'customer', header: t('columns.customer'), sortField: 'customer', firstOrder: 'asc', cell: (request) => customerLabel(request, t('erasedCustomer')) },
      { id: 'receivedAt', header: t('columns.receivedAt'), sortField: 'receivedAt', cell: (request) => format.date(request.receivedAt) },
      {
        id: 'dueAt',
        header: t('columns.dueAt'),
        sortField: 'dueAt',
        firstOrder: 'asc',
        cell: (request) => (
          <span>
            {format.date(request.dueAt)}
            {request.extendedAt ? ` (${t('extended')})` : ''}
          </span>
        ),
      },
      { id: 'daysLeft', header: t('columns.daysLeft'), cell: (request) => <DaysLeft request={request} /> },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (request) => <PrivacyStatusBadge status={request.status} /> },
      { id: 'handledBy', header: t('columns.handledBy'), cell: (request) => request.handledByEmail ?? '—' },
    ],
    [t, format, drawer],
  );

  const pending = params.isPending === undefined ? 'all' : params.isPending ? 'pending' : 'closed';
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <Group gap="sm">
          <ExportButton path={PRIVACY_PATH} params={params} />
          <Can permission="privacy:write">
            <Button component={Link} to={drawer.hrefFor('new')} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('create')}
            </Button>
          </Can>
        </Group>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <ListSearchInput value={params.q} onSearch={(q) => update({ q }, { isReplace: true })} placeholder={t('searchPlaceholder')} />
        <Select
          label={t('filters.kind')}
          data={[{ value: 'all', label: t('filters.allKinds') }, ...PRIVACY_REQUEST_KINDS.map((value) => ({ value, label: t(`kind.${value}`) }))]}
          value={params.kind ?? 'all'}
          onChange={(value) => update({ kind: value && value !== 'all' ? (value as PrivacyRequest['kind']) : undefined })}
          allowDeselect={false}
          w={200}
        />
        <Select
          label={t('filters.status')}
          data={[{ value: 'all', label: t('filters.allStatuses') }, ...PRIVACY_REQUEST_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))]}
          value={params.status ?? 'all'}
          onChange={(value) => update({ status: value && value !== 'all' ? (value as PrivacyRequest['status']) : undefined })}
          allowDeselect={false}
          w={180}
        />
        <Select
          label={t('filters.queue')}
          data={[
            { value: 'all', label: t('filters.allRequests') },
            { value: 'pending', label: t('filters.pending') },
            { value: 'closed', label: t('filters.closed') },
          ]}
          value={pending}
          onChange={(value) => update({ isPending: value === 'pending' ? true : value === 'closed' ? false : undefined })}
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
        getRowId={(request) => request.id}
        emptyText={t('empty')}
        isFiltered={isFiltered}
        errorTitle={t('errorTitle')}
        minWidth={1000}
      />
      <NewPrivacyRequestDialog isOpen={drawer.target === 'new'} onClose={drawer.close} onCreated={(request) => drawer.open(request.id, { isReplace: true })} renderCustomerPicker={renderCustomerPicker} />
      <PrivacyRequestDrawer
        id={drawer.target && drawer.target !== 'new' ? drawer.target : null}
        onClose={drawer.close}
        customerHref={customerHref}
        {...(renderCustomerFigures ? { renderCustomerFigures } : {})}
      />
    </Stack>
  );
}
