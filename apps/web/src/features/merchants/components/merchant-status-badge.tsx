import type { MerchantStatus } from '@sf/contract/merchants';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';

const COLORS: Record<MerchantStatus, string> = { active: 'green', suspended: 'orange', archived: 'gray' };

export function MerchantStatusBadge({ status }: { status: MerchantStatus }) {
  const { t } = useTranslation('merchants');
  return <StatusBadge color={COLORS[status]}>{t(`status.${status}`)}</StatusBadge>;
}
