import { Badge } from '@mantine/core';
import type { RewardStatus, VoucherStatus } from '@sf/contract/rewards';
import { useTranslation } from 'react-i18next';

const REWARD_COLORS: Record<RewardStatus, string> = { draft: 'gray', active: 'green', archived: 'dark' };
const VOUCHER_COLORS: Record<VoucherStatus, string> = { available: 'blue', issued: 'green', used: 'gray', expired: 'orange', void: 'red' };

export function RewardStatusBadge({ status }: { status: RewardStatus }) {
  const { t } = useTranslation('rewards');
  return (
    <Badge color={REWARD_COLORS[status]} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}

export function VoucherStatusBadge({ status }: { status: VoucherStatus }) {
  const { t } = useTranslation('rewards');
  return (
    <Badge color={VOUCHER_COLORS[status]} variant="light">
      {t(`voucherStatus.${status}`)}
    </Badge>
  );
}
