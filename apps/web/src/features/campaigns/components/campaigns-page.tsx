import { Drawer, Skeleton, Stack, Text } from '@mantine/core';
import { CAMPAIGN_STATUSES, listCampaignsQuerySchema, type Campaign } from '@sf/contract/campaigns';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { TextLink } from '../../../components/ui/in-app-link.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useCampaign } from '../api/get-campaign.ts';
import { CAMPAIGNS_PATH, useCampaigns } from '../api/get-campaigns.ts';
import { CampaignEditor, type Option, type ProgramOption, type RenderRichText } from './campaign-editor.tsx';
import { CampaignStatusBadge } from './campaign-status-badge.tsx';

type Props = { programOptions: ProgramOption[]; merchantOptions: Option[]; renderRichText: RenderRichText };

type SortField = ListParams<typeof listCampaignsQuerySchema>['sort'];

const getRowId = (campaign: Campaign) => campaign.id;

function EditorContent({ id, onCreated, ...rest }: Props & { id: string; onCreated: (campaign: Campaign) => void }) {
  const { t } = useTranslation('campaigns');
  const query = useCampaign(id === 'new' ? null : id);
  if (id === 'new') return <CampaignEditor campaign={null} onCreated={onCreated} {...rest} />;
  if (query.isPending) return <Skeleton height={240} aria-label={t('loading')} />;
  // "Not found" only for a campaign that is not there; a network failure or a 5xx says so. A failed
  // refetch keeps the editor and the draft in it (`StaleDataNotice`).
  if (isBlockingFailure(query) || !query.data) return <FailureAlert error={query.error} missing={{ title: t('notFound.title'), text: t('notFound.text') }} />;
  return (
    <Stack gap="md">
      <StaleDataNotice query={query} />
      {/* A fresh form per campaign (its draft state is its own). */}
      <CampaignEditor key={query.data.id} campaign={query.data} onCreated={onCreated} {...rest} />
    </Stack>
  );
}

/**
 * `/campaigns` — App → Campagne (admins): e-mail campaigns to customers who consented to marketing, a
 * list of the kit (docs/decisions/013): search in the name, the status filter, sortable columns, the
 * CSV export with the same filters, "Nuova campagna", and the editor drawer (`?campaign=`).
 */
export function CampaignsPage(props: Props) {
  const { t } = useTranslation('campaigns');
  const format = useFormatters();
  const list = useList(listCampaignsQuerySchema, useCampaigns);
  const drawer = useDrawerParam('campaign');

  const columns = useMemo<DataTableColumn<Campaign, SortField>[]>(
    () => [
      {
        id: 'name',
        isName: true,
        header: t('columns.name'),
        sortField: 'name',
        firstOrder: 'asc',
        cell: (campaign) => (
          <TextLink to={drawer.hrefFor(campaign.id)} isStrong>
            {campaign.name}
          </TextLink>
        ),
      },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', minWidth: 120, cell: (campaign) => <CampaignStatusBadge status={campaign.status} /> },
      {
        id: 'date',
        header: t('columns.when'),
        sortField: 'date',
        firstOrder: 'desc',
        cell: (campaign) => format.dateTime(campaign.sentAt ?? campaign.scheduledAt ?? campaign.updatedAt),
      },
      { id: 'recipients', header: t('report.recipients'), sortField: 'recipients', firstOrder: 'desc', isNumeric: true, cell: (campaign) => format.number(campaign.counts.recipients) },
      { id: 'sent', header: t('report.sent'), sortField: 'sent', firstOrder: 'desc', isNumeric: true, cell: (campaign) => format.number(campaign.counts.sent) },
      { id: 'failed', header: t('report.failed'), isNumeric: true, cell: (campaign) => format.number(campaign.counts.failed) },
      { id: 'skipped', header: t('report.skipped'), isNumeric: true, cell: (campaign) => format.number(campaign.counts.skipped) },
      { id: 'unsubscribed', header: t('report.unsubscribed'), isNumeric: true, cell: (campaign) => format.number(campaign.counts.unsubscribed) },
    ],
    [t, format, drawer.hrefFor],
  );

  return (
    <ListPage
      list={list}
      texts={{
        title: t('title'),
        caption: t('list.caption'),
        empty: t('empty'),
        emptyFiltered: t('list.emptyFiltered'),
        errorTitle: t('errorTitle'),
        searchPlaceholder: t('list.searchPlaceholder'),
      }}
      intro={
        <Text c="dimmed" size="sm">
          {t('caption')}
        </Text>
      }
      exportPath={CAMPAIGNS_PATH}
      create={{ permission: 'campaigns:write', href: drawer.hrefFor('new'), label: t('create') }}
      filters={[
        {
          type: 'select',
          field: 'status',
          label: t('list.statusFilter'),
          allLabel: t('list.allStatuses'),
          options: CAMPAIGN_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
          width: 192,
        },
      ]}
      columns={columns}
      getRowId={getRowId}
    >
      <Text size="xs" c="dimmed">
        {t('report.noTracking')}
      </Text>
      <Drawer
        opened={drawer.target !== null}
        onClose={drawer.close}
        position="right"
        size="xl"
        title={drawer.target === 'new' ? t('newTitle') : t('editTitle')}
        closeButtonProps={{ 'aria-label': t('common:close') }}
      >
        {drawer.target !== null ? <EditorContent id={drawer.target} onCreated={(campaign) => drawer.open(campaign.id, { isReplace: true })} {...props} /> : null}
      </Drawer>
    </ListPage>
  );
}
