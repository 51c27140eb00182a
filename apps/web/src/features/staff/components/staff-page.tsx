import { Alert, Anchor, Button, Group, Menu, Stack, Tabs, Text, Title } from '@mantine/core';
import { ACCOUNT_ROLES } from '@sf/contract/roles';
import { ACCOUNT_STATUSES, listStaffQuerySchema, type StaffAccount } from '@sf/contract/staff';
import { IconDots } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ListTable, ListToolbar } from '../../../components/ui/list-page.tsx';
import { useList, useSearchParamsWriter, type ListParams } from '../../../hooks/use-list-params.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { STAFF_PATH, useStaff, useWaitingStaffCount, WAITING_QUERY } from '../api/staff.ts';
import { InvitationsPanel } from './invitations-panel.tsx';
import { StaffActionDialog, type StaffAction, type StaffActionTarget } from './staff-action-dialog.tsx';
import { StaffRoleBadge, StaffStatusBadge } from './staff-badges.tsx';

type SortField = ListParams<typeof listStaffQuerySchema>['sort'];
type Tab = 'accounts' | 'invitations';

const getRowId = (account: StaffAccount) => account.uid;
const isWaiting = (account: StaffAccount) => account.role === null && account.status === 'active';

/**
 * `/staff` — Anagrafiche → Staff (admin): the accounts, those waiting for approval first, with search,
 * role and status filters and export; approve / change role / disable / enable, each confirmed in a
 * dialog. The second tab (`?tab=invitations`) lists the open invitations. Each tab keeps its own list
 * state in the URL; switching tab starts the other list afresh.
 */
export function StaffPage() {
  const { t } = useTranslation('staff');
  const [searchParams] = useSearchParams();
  const writeSearch = useSearchParamsWriter();
  const tab: Tab = searchParams.get('tab') === 'invitations' ? 'invitations' : 'accounts';
  return (
    <Stack gap="lg">
      <Title order={1}>{t('title')}</Title>
      <Tabs value={tab} onChange={(value) => writeSearch(() => new URLSearchParams(value === 'invitations' ? { tab: 'invitations' } : {}))} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="accounts">{t('tabs.accounts')}</Tabs.Tab>
          <Tabs.Tab value="invitations">{t('tabs.invitations')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="accounts" pt="md">
          <AccountsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="invitations" pt="md">
          <InvitationsPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function AccountsPanel() {
  const { t } = useTranslation('staff');
  const format = useFormatters();
  const me = useCurrentUser();
  const list = useList(listStaffQuerySchema, useStaff);
  const { params, update } = list;
  const waiting = useWaitingStaffCount();
  const [target, setTarget] = useState<StaffActionTarget | null>(null);

  const columns = useMemo<DataTableColumn<StaffAccount, SortField>[]>(
    () => [
      { id: 'name', header: t('columns.name'), sortField: 'displayName', firstOrder: 'asc', isName: true, cell: (account) => account.displayName || '—' },
      { id: 'email', header: t('columns.email'), sortField: 'email', firstOrder: 'asc', cell: (account) => account.email },
      { id: 'role', header: t('columns.role'), sortField: 'role', firstOrder: 'asc', cell: (account) => <StaffRoleBadge role={account.role} /> },
      { id: 'status', header: t('columns.status'), sortField: 'status', firstOrder: 'asc', cell: (account) => <StaffStatusBadge status={account.status} /> },
      { id: 'createdAt', header: t('columns.createdAt'), sortField: 'createdAt', cell: (account) => format.date(account.createdAt) },
      {
        id: 'actions',
        header: t('columns.actions'),
        cell: (account) => (account.uid === me?.uid ? <Text size="sm" c="dimmed">{t('you')}</Text> : <AccountActions account={account} onAction={(action) => setTarget({ account, action })} />),
      },
    ],
    [t, format, me?.uid],
  );

  const waitingCount = waiting.data ?? 0;
  return (
    <Stack gap="md">
      {waitingCount > 0 ? (
        <Alert color="orange" variant="light">
          <Group gap="sm">
            <Text size="sm">{t('waitingAlert', { count: waitingCount })}</Text>
            {params.role !== 'none' ? (
              <Anchor component="button" type="button" size="sm" onClick={() => update({ ...WAITING_QUERY })}>
                {t('showWaiting')}
              </Anchor>
            ) : null}
          </Group>
        </Alert>
      ) : null}
      <ListToolbar
        params={params}
        update={update}
        searchPlaceholder={t('searchPlaceholder')}
        filters={[
          {
            type: 'select',
            field: 'role',
            label: t('filters.role'),
            allLabel: t('filters.allRoles'),
            options: [{ value: 'none', label: t('role.none') }, ...ACCOUNT_ROLES.map((value) => ({ value, label: t(`role.${value}`) }))],
            width: 230,
          },
          { type: 'select', field: 'status', label: t('filters.status'), allLabel: t('filters.allStatuses'), options: ACCOUNT_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })), width: 170 },
        ]}
        exportPath={STAFF_PATH}
      />
      <ListTable list={list} texts={{ caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle') }} columns={columns} getRowId={getRowId} minWidth={900} />
      <StaffActionDialog target={target} onClose={() => setTarget(null)} />
    </Stack>
  );
}

function AccountActions({ account, onAction }: { account: StaffAccount; onAction: (action: StaffAction) => void }) {
  const { t } = useTranslation('staff');
  const name = account.displayName || account.email;
  return (
    <Group gap="xs" wrap="nowrap">
      {isWaiting(account) ? (
        <Button size="compact-sm" onClick={() => onAction('approve')} aria-label={`${t('actions.approve')}: ${name}`}>
          {t('actions.approve')}
        </Button>
      ) : null}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-sm" variant="subtle" aria-label={t('actions.menu', { name })}>
            <IconDots size={16} aria-hidden />
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => onAction('role')}>{t('actions.changeRole')}</Menu.Item>
          {account.status === 'active' ? (
            <Menu.Item color="red" onClick={() => onAction('disable')}>
              {t('actions.disable')}
            </Menu.Item>
          ) : (
            <Menu.Item onClick={() => onAction('enable')}>{t('actions.enable')}</Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

