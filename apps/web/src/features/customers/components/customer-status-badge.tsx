import { Badge } from '@mantine/core';
import type { CustomerStatus } from '@sf/contract/customers-list';
import { useTranslation } from 'react-i18next';

const COLORS: Record<CustomerStatus, string> = { active: 'green', blocked: 'red', erased: 'gray' };

export function CustomerStatusBadge({ status }: { status: CustomerStatus }) {
  const { t } = useTranslation('customers');
  return (
    <Badge color={COLORS[status]} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}
