import { Alert, Button, Drawer, Group, Pagination, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { Campaign } from '@sf/contract/campaigns';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../components/can.tsx';
import { TextLink } from '../../../components/ui/in-app-link.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useCampaign } from '../api/get-campaign.ts';
import { useCampaigns } from '../api/get-campaigns.ts';
import { CampaignEditor, type Option, type RenderRichText } from './campaign-editor.tsx';
import { CampaignStatusBadge } from './campaign-status-badge.tsx';

type Props = { programOptions: Option[]; merchantOptions: Option[]; renderRichText: RenderRichText };

function EditorContent({ id, onCreated, ...rest }: Props & { id: string; onCreated: (campaign: Campaign) => void }) {
  const { t } = useTranslation('campaigns');
  const query = useCampaign(id === 'new' ? null : id);
  if (id === 'new') return <CampaignEditor campaign={null} onCreated={onCreated} {...rest} />;
  if (query.isPending) return <Skeleton height={240} aria-label={t('loading')} />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {t('notFound')}
      </Alert>
    );
  }
  // A fresh form per campaign (its draft state is its own).
  return <CampaignEditor key={query.data.id} campaign={query.data} onCreated={onCreated} {...rest} />;
}

/** `/campaigns` — App → Campagne (admins): e-mail campaigns to customers who consented to marketing. */
export function CampaignsPage(props: Props) {
  const { t } = useTranslation('campaigns');
  const format = useFormatters();
  const [page, setPage] = useState(1);
  const list = useCampaigns(page);
  const drawer = useDrawerParam('campaign');
  const items = list.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / 25));
  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={1}>{t('title')}</Title>
          <Text c="dimmed" size="sm">
            {t('caption')}
          </Text>
        </div>
        <Can permission="campaigns:write">
          <Button onClick={() => drawer.open('new')}>{t('create')}</Button>
        </Can>
      </Group>
      {list.isError ? (
        <Alert color="red" role="alert">
          {t('errorTitle')}
        </Alert>
      ) : null}
      <Table striped highlightOnHover aria-label={t('title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('columns.name')}</Table.Th>
            <Table.Th>{t('columns.status')}</Table.Th>
            <Table.Th ta="right">{t('report.recipients')}</Table.Th>
            <Table.Th ta="right">{t('report.sent')}</Table.Th>
            <Table.Th ta="right">{t('report.failed')}</Table.Th>
            <Table.Th ta="right">{t('report.skipped')}</Table.Th>
            <Table.Th ta="right">{t('report.unsubscribed')}</Table.Th>
            <Table.Th>{t('columns.when')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((campaign) => (
            <Table.Tr key={campaign.id}>
              <Table.Td>
                <TextLink to={drawer.hrefFor(campaign.id)} isStrong>
                  {campaign.name}
                </TextLink>
              </Table.Td>
              <Table.Td>
                <CampaignStatusBadge status={campaign.status} />
              </Table.Td>
              <Table.Td ta="right">{format.number(campaign.counts.recipients)}</Table.Td>
              <Table.Td ta="right">{format.number(campaign.counts.sent)}</Table.Td>
              <Table.Td ta="right">{format.number(campaign.counts.failed)}</Table.Td>
              <Table.Td ta="right">{format.number(campaign.counts.skipped)}</Table.Td>
              <Table.Td ta="right">{format.number(campaign.counts.unsubscribed)}</Table.Td>
              <Table.Td>{format.dateTime(campaign.sentAt ?? campaign.scheduledAt ?? campaign.updatedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {!list.isPending && items.length === 0 ? <Text c="dimmed">{t('empty')}</Text> : null}
      {pages > 1 ? <Pagination value={page} onChange={setPage} total={pages} /> : null}
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
    </Stack>
  );
}
