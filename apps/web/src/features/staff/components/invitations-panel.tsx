import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { listInvitationsQuerySchema, type StaffInvitation } from '@sf/contract/staff-invitations';
import { IconMailPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ListTable, ListToolbar } from '../../../components/ui/list-page.tsx';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { describeApiError } from '../../../lib/api-client.ts';
import { useFormatters } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { INVITATIONS_PATH, useInvitations, useResendInvitation, useRevokeInvitation } from '../api/invitations.ts';
import { InviteDialog } from './invite-dialog.tsx';
import { StaffRoleBadge } from './staff-badges.tsx';

type SortField = ListParams<typeof listInvitationsQuerySchema>['sort'];
type Pending = { invitation: StaffInvitation; action: 'resend' | 'revoke' };

const getRowId = (invitation: StaffInvitation) => invitation.id;

/** The open invitations: invite, resend (a new link; the old one dies), revoke — each confirmed. */
export function InvitationsPanel() {
  const { t } = useTranslation('staff');
  const format = useFormatters();
  const list = useList(listInvitationsQuerySchema, useInvitations);
  const [isInviting, setInviting] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);

  const columns = useMemo<DataTableColumn<StaffInvitation, SortField>[]>(
    () => [
      { id: 'name', header: t('invitations.columns.name'), isName: true, cell: (invitation) => invitation.displayName },
      { id: 'email', header: t('invitations.columns.email'), sortField: 'email', firstOrder: 'asc', cell: (invitation) => invitation.email },
      { id: 'role', header: t('invitations.columns.role'), cell: (invitation) => <StaffRoleBadge role={invitation.role} /> },
      {
        id: 'status',
        header: t('invitations.columns.status'),
        cell: (invitation) => (
          <Badge color={invitation.status === 'expired' ? 'red' : 'yellow'} variant="light">
            {t(`invitations.status.${invitation.status}`)}
          </Badge>
        ),
      },
      { id: 'sentAt', header: t('invitations.columns.sentAt'), sortField: 'sentAt', cell: (invitation) => format.dateTime(invitation.sentAt) },
      { id: 'expiresAt', header: t('invitations.columns.expiresAt'), sortField: 'expiresAt', cell: (invitation) => format.dateTime(invitation.expiresAt) },
      { id: 'invitedBy', header: t('invitations.columns.invitedBy'), cell: (invitation) => invitation.invitedBy ?? '—' },
      {
        id: 'actions',
        header: t('invitations.columns.actions'),
        cell: (invitation) => (
          <Group gap="xs" wrap="nowrap">
            <Button size="compact-sm" variant="light" onClick={() => setPending({ invitation, action: 'resend' })} aria-label={`${t('invitations.resend')}: ${invitation.email}`}>
              {t('invitations.resend')}
            </Button>
            <Button size="compact-sm" variant="light" color="red" onClick={() => setPending({ invitation, action: 'revoke' })} aria-label={`${t('invitations.revoke')}: ${invitation.email}`}>
              {t('invitations.revoke')}
            </Button>
          </Group>
        ),
      },
    ],
    [t, format],
  );

  return (
    <Stack gap="md">
      <ListToolbar
        params={list.params}
        update={list.update}
        searchPlaceholder={t('invitations.searchPlaceholder')}
        exportPath={INVITATIONS_PATH}
        create={{ label: t('invitations.invite'), icon: <IconMailPlus size={16} aria-hidden />, onClick: () => setInviting(true) }}
      />
      <ListTable
        list={list}
        texts={{ caption: t('invitations.caption'), empty: t('invitations.empty'), errorTitle: t('invitations.errorTitle') }}
        columns={columns}
        getRowId={getRowId}
        minWidth={900}
      />
      <InviteDialog isOpen={isInviting} onClose={() => setInviting(false)} />
      <ConfirmInvitationDialog pending={pending} onClose={() => setPending(null)} />
    </Stack>
  );
}

function ConfirmInvitationDialog({ pending, onClose }: { pending: Pending | null; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [failure, setFailure] = useState<string | null>(null);
  const action = pending?.action;
  const email = pending?.invitation.email ?? '';

  const confirm = async () => {
    if (!pending) return;
    setFailure(null);
    try {
      if (pending.action === 'resend') {
        await resend.mutateAsync(pending.invitation.id);
        notifySuccess(t('invitations.resent', { email }));
      } else {
        await revoke.mutateAsync(pending.invitation.id);
        notifySuccess(t('invitations.revoked'));
      }
      onClose();
    } catch (error) {
      setFailure(describeApiError(error));
    }
  };

  return (
    <Modal
      opened={pending !== null}
      onClose={() => {
        setFailure(null);
        onClose();
      }}
      title={action ? t(`invitations.${action}Title`, { email }) : ''}
      closeButtonProps={{ 'aria-label': t('dialog.close') }}
    >
      <Stack gap="md">
        <Text size="sm">{action ? t(`invitations.${action}Message`) : null}</Text>
        {failure ? (
          <Text c="red" role="alert" size="sm">
            {failure}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('dialog.cancel')}
          </Button>
          <Button color={action === 'revoke' ? 'red' : undefined} loading={resend.isPending || revoke.isPending} onClick={() => void confirm()}>
            {action ? t(`invitations.${action}Confirm`) : null}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
