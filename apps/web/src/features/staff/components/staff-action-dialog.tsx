import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { ACCOUNT_ROLES, type AccountRole } from '@sf/contract/roles';
import type { StaffAccount } from '@sf/contract/staff';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useUpdateStaff } from '../api/staff.ts';

export type StaffAction = 'approve' | 'role' | 'disable' | 'enable';
export type StaffActionTarget = { account: StaffAccount; action: StaffAction };

/** Approve with a role, change the role, disable or enable: always confirmed here first. */
export function StaffActionDialog({ target, onClose }: { target: StaffActionTarget | null; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const update = useUpdateStaff();
  const [role, setRole] = useState<AccountRole>('editor');
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    setFailure(null);
    setRole(target?.account.role ?? 'editor');
  }, [target]);

  const account = target?.account;
  const action = target?.action;
  const names = account ? { name: account.displayName || account.email, email: account.email } : {};
  const roles = action === 'approve' ? (['editor', 'admin'] as const) : ACCOUNT_ROLES;

  const submit = async () => {
    if (!account || !action) return;
    setFailure(null);
    const body = action === 'disable' ? { status: 'disabled' as const } : action === 'enable' ? { status: 'active' as const } : { role };
    try {
      await update.mutateAsync({ uid: account.uid, ...body });
      notifySuccess(t('dialog.done'));
      onClose();
    } catch (caught) {
      // A refusal (409 last_admin / own_account) comes worded in the user's language by the API.
      setFailure(isApiError(caught) && caught.status < 500 && caught.status !== 0 ? caught.message : describeApiError(caught));
    }
  };

  const title = action === 'approve' ? 'approveTitle' : action === 'role' ? 'roleTitle' : action === 'disable' ? 'disableTitle' : 'enableTitle';
  const text = action === 'approve' ? 'approveMessage' : action === 'role' ? 'roleMessage' : action === 'disable' ? 'disableMessage' : 'enableMessage';
  const confirm = action === 'approve' ? 'confirmApprove' : action === 'role' ? 'confirmRole' : action === 'disable' ? 'confirmDisable' : 'confirmEnable';

  return (
    <Modal opened={target !== null} onClose={onClose} title={t(`dialog.${title}`, names)} closeButtonProps={{ 'aria-label': t('dialog.close') }}>
      {account ? (
        <Stack gap="md">
          <Text size="sm">{t(`dialog.${text}`, names)}</Text>
          {action === 'approve' || action === 'role' ? (
            <Select
              label={t('dialog.newRole')}
              data={roles.map((value) => ({ value, label: t(`role.${value}`) }))}
              value={role}
              onChange={(value) => value && setRole(value as AccountRole)}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          {failure ? (
            <Text c="red" role="alert" size="sm">
              {failure}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('dialog.cancel')}
            </Button>
            <Button color={action === 'disable' ? 'red' : undefined} loading={update.isPending} onClick={() => void submit()}>
              {t(`dialog.${confirm}`)}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

