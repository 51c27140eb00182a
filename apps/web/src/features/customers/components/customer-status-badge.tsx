import type { CustomerStatus } from '@sf/contract/customers-list';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';

export const CUSTOMER_STATUS_COLORS: Record<CustomerStatus, string> = { active: 'green', blocked: 'red', erased: 'gray' };

export function CustomerStatusBadge({ status }: { status: CustomerStatus }) {
  const { t } = useTranslation('customers');
  return <StatusBadge color={CUSTOMER_STATUS_COLORS[status]}>{t(`status.${status}`)}</StatusBadge>;
}
