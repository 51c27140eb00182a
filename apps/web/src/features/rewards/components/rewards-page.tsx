import { REWARD_STATUSES, listRewardsQuerySchema, type Reward } from '@sf/contract/rewards';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { TextLink } from '../../../components/ui/in-app-link.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useDrawerParam } from '../../../hooks/use-drawer-param.ts';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { REWARDS_PATH, useRewards } from '../api/get-rewards.ts';
import { RewardFormDrawer } from './reward-form-drawer.tsx';
import { VoucherCounts } from './voucher-counts.tsx';
import { RewardStatusBadge } from './reward-status-badge.tsx';

type SortField = ListParams<typeof listRewardsQuerySchema>['sort'];
type ProgramOption = { value: string; label: string; type: 'points' | 'stamps' };

const getRowId = (reward: Reward) => reward.id;

/** `/rewards` — Features → Premi: list, filters, export, the form drawer (`?reward=new`). */
export function RewardsPage({ programs, rewardHref }: { programs: ProgramOption[]; rewardHref: (id: string) => string }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const navigate = useNavigate();
  const list = useList(listRewardsQuerySchema, useRewards);
  const drawer = useDrawerParam('reward');

  const columns = useMemo<DataTableColumn<Reward, SortField>[]>(
    () => [
      {
        id: 'name',
        isName: true,
        header: t('columns.name'),
        sortField: 'name',
        firstOrder: 'asc',
        cell: (reward) => (
          <TextLink to={rewardHref(reward.id)} isStrong>
            {reward.name}
          </TextLink>
        ),
      },
      { id: 'program', header: t('columns.program'), cell: (reward) => reward.programName },
      { id: 'cost', header: t('columns.cost'), sortField: 'cost', firstOrder: 'asc', isNumeric: true, cell: (reward) => t(`cost.${reward.costUnit}`, { count: reward.cost, value: format.number(reward.cost) }) },
      { id: 'stock', header: t('columns.stock'), sortField: 'stock', isNumeric: true, cell: (reward) => (reward.stock === null ? t('unlimited') : format.number(reward.stock)) },
      {
        id: 'vouchers',
        header: t('columns.vouchers'),
        cell: (reward) => <VoucherCounts counts={reward.vouchers} />,
      },
      { id: 'validUntil', header: t('columns.validUntil'), sortField: 'validUntil', cell: (reward) => (reward.validUntil ? format.day(reward.validUntil) : '—') },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (reward) => <RewardStatusBadge status={reward.status} /> },
    ],
    [t, format, rewardHref],
  );

  return (
    <ListPage
      list={list}
      texts={{ title: t('title'), caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle'), searchPlaceholder: t('searchPlaceholder') }}
      exportPath={REWARDS_PATH}
      create={{ permission: 'rewards:write', href: drawer.hrefFor('new'), label: t('create') }}
      filters={[
        { type: 'select', field: 'programId', label: t('filters.program'), allLabel: t('filters.allPrograms'), options: programs.map(({ value, label }) => ({ value, label })), width: 220 },
        { type: 'select', field: 'status', label: t('filters.status'), allLabel: t('filters.allStatuses'), options: REWARD_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })), width: 160 },
      ]}
      columns={columns}
      getRowId={getRowId}
    >
      <RewardFormDrawer target={drawer.target} programs={programs} onClose={drawer.close} onSaved={(reward) => void navigate(rewardHref(reward.id))} />
    </ListPage>
  );
}
