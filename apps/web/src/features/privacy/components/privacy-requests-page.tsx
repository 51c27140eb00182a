import {
  listPrivacyRequestsQuerySchema,
  PRIVACY_REQUEST_KINDS,
  PRIVACY_REQUEST_STATUSES,
  type PrivacyRequest,
} from '@sf/contract/privacy';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { TextLink } from '../../../components/ui/in-app-link.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
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
  const list = useList(listPrivacyRequestsQuerySchema, usePrivacyRequests);
  const drawer = useDrawerParam('request');

  const columns = useMemo<DataTableColumn<PrivacyRequest, SortField>[]>(
    () => [
      {
        id: 'kind',
        header: t('columns.kind'),
        sortField: 'kind',
        firstOrder: 'asc',
        cell: (request) => (
          <TextLink to={drawer.hrefFor(request.id)} isStrong aria-label={t('open', { kind: t(`kind.${request.kind}`), customer: customerLabel(request, t('erasedCustomer')) })}>
            {t(`kind.${request.kind}`)}
          </TextLink>
        ),
      },
      { id: 'customer', header: t('columns.customer'), sortField: 'customer', firstOrder: 'asc', isName: true, cell: (request) => customerLabel(request, t('erasedCustomer')) },
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
      // The staff member's name (their e-mail when they have none), the e-mail on hover.
      {
        id: 'handledBy',
        header: t('columns.handledBy'),
        cell: (request) => <span title={request.handledByEmail ?? undefined}>{request.handledByName ?? request.handledByEmail ?? '—'}</span>,
      },
    ],
    [t, format, drawer],
  );

  return (
    <ListPage
      list={list}
      texts={{ title: t('title'), caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle'), searchPlaceholder: t('searchPlaceholder') }}
      exportPath={PRIVACY_PATH}
      create={{ permission: 'privacy:write', href: drawer.hrefFor('new'), label: t('create') }}
      filters={[
        { type: 'select', field: 'kind', label: t('filters.kind'), allLabel: t('filters.allKinds'), options: PRIVACY_REQUEST_KINDS.map((value) => ({ value, label: t(`kind.${value}`) })), width: 200 },
        { type: 'select', field: 'status', label: t('filters.status'), allLabel: t('filters.allStatuses'), options: PRIVACY_REQUEST_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })), width: 180 },
        {
          type: 'boolean',
          field: 'isPending',
          label: t('filters.queue'),
          choices: [
            { value: 'all', label: t('filters.allRequests'), is: undefined },
            { value: 'pending', label: t('filters.pending'), is: true },
            { value: 'closed', label: t('filters.closed'), is: false },
          ],
          width: 180,
        },
      ]}
      columns={columns}
      getRowId={(request) => request.id}
      minWidth={1000}
    >
      <NewPrivacyRequestDialog isOpen={drawer.target === 'new'} onClose={drawer.close} onCreated={(request) => drawer.open(request.id, { isReplace: true })} renderCustomerPicker={renderCustomerPicker} />
      <PrivacyRequestDrawer
        id={drawer.target && drawer.target !== 'new' ? drawer.target : null}
        onClose={drawer.close}
        customerHref={customerHref}
        {...(renderCustomerFigures ? { renderCustomerFigures } : {})}
      />
    </ListPage>
  );
}
