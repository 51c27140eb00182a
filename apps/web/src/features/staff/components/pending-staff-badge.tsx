import { Badge, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/can.tsx';
import { useWaitingStaffCount } from '../api/staff.ts';

/** The menu's count of accounts waiting for approval; nothing when there are none (or for non-admins). */
export function PendingStaffBadge() {
  const { t } = useTranslation('layout');
  const canManage = useCan('staff:manage');
  const waiting = useWaitingStaffCount({ isEnabled: canManage });
  const count = waiting.data ?? 0;
  if (!canManage || count === 0) return null;
  return (
    <Badge size="sm" color="orange" variant="filled" circle={count < 10} data-testid="pending-staff-badge">
      <span aria-hidden>{count}</span>
      <VisuallyHidden>{t('nav.waitingBadge', { count })}</VisuallyHidden>
    </Badge>
  );
}
