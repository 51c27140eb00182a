import { Badge } from '@mantine/core';
import type { StaffAccount } from '@sf/contract/staff';
import { useTranslation } from 'react-i18next';

const ROLE_COLORS = { admin: 'grape', editor: 'blue', member: 'gray', none: 'orange' } as const;

export function StaffRoleBadge({ role }: { role: StaffAccount['role'] }) {
  const { t } = useTranslation('staff');
  const key = role ?? 'none';
  return (
    <Badge color={ROLE_COLORS[key]} variant={role === null ? 'filled' : 'light'}>
      {t(`role.${key}`)}
    </Badge>
  );
}

export function StaffStatusBadge({ status }: { status: StaffAccount['status'] }) {
  const { t } = useTranslation('staff');
  return (
    <Badge color={status === 'active' ? 'green' : 'red'} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}
