import { Anchor, Button, Group, Select, Stack, Title } from '@mantine/core';
import { REWARD_STATUSES, listRewardsQuerySchema, type Reward } from '@sf/contract/rewards';
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
import { REWARDS_PATH, useRewards } from '../api/get-rewards.ts';
import { RewardFormDrawer } from './reward-form-drawer.tsx';
import { RewardStatusBadge } from './reward-status-badge.tsx';

type SortField = ListParams<typeof listRewardsQuerySchema>['sort'];
type ProgramOption = { value: string; label: string; type: 'points' | 'stamps' };

const getRowId = (reward: Reward) => reward.id;

/** `/rewards` — Features → Premi: list, filters, export, the form drawer (`?reward=new`). */
export function RewardsPage({ programs, rewardHref }: { programs: ProgramOption[]; rewardHref: (id: string) => string }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const navigate = useNavigate();
  const { params, update, isFiltered } = useListParams(listRewardsQuerySchema);
  const drawer = useDrawerParam('reward');
  const query = useRewards(toApiQuery(params));

  const columns = useMemo<DataTableColumn<Reward, SortField>[]>(
    () => [
      {
        id: 'name',
        header: t('columns.name'),
        sortField: 'name',
        firstOrder: 'asc',
        cell: (reward) => (
          <Anchor component={Link} to={rewardHref(reward.id)} fw={500}>
            {reward.name}
          </Anchor>
        ),
      },
      { id: 'program', header: t('columns.program'), cell: (reward) => reward.programName },
      { id: 'cost', header: t('columns.cost'), sortField: 'cost', firstOrder: 'asc', isNumeric: true, cell: (reward) => t(`cost.${reward.costUnit}`, { count: reward.cost, value: format.number(reward.cost) }) },
      { id: 'stock', header: t('columns.stock'), sortField: 'stock', isNumeric: true, cell: (reward) => (reward.stock === null ? t('unlimited') : format.number(reward.stock)) },
      {
        id: 'vouchers',
        header: t('columns.vouchers'),
        cell: (reward) => t('voucherCounts', { available: format.number(reward.vouchers.available), issued: format.number(reward.vouchers.issued), used: format.number(reward.vouchers.used) }),
      },
      { id: 'validUntil', header: t('columns.validUntil'), sortField: 'validUntil', cell: (reward) => (reward.validUntil ? format.date(reward.validUntil) : '—') },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (reward) => <RewardStatusBadge status={reward.status} /> },
    ],
    [t, format, rewardHref],
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <Group gap="sm">
          <ExportButton path={REWARDS_PATH} params={params} />
          <Can permission="rewards:write">
            <Button component={Link} to={drawer.hrefFor('new')} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('create')}
            </Button>
          </Can>
        </Group>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <ListSearchInput value={params.q} onSearch={(q) => update({ q }, { isReplace: true })} placeholder={t('searchPlaceholder')} />
        <Select
          label={t('filters.program')}
          data={[{ value: 'all', label: t('filters.allPrograms') }, ...programs.map(({ value, label }) => ({ value, label }))]}
          value={params.programId ?? 'all'}
          onChange={(value) => update({ programId: value && value !== 'all' ? value : undefined })}
          allowDeselect={false}
          w={220}
        />
        <Select
          label={t('filters.status')}
          data={[{ value: 'all', label: t('filters.allStatuses') }, ...REWARD_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))]}
          value={params.status ?? 'all'}
          onChange={(value) => update({ status: value && value !== 'all' ? (value as Reward['status']) : undefined })}
          allowDeselect={false}
          w={160}
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
      />
      <RewardFormDrawer target={drawer.target} programs={programs} onClose={drawer.close} onSaved={(reward) => void navigate(rewardHref(reward.id))} />
    </Stack>
  );
}
