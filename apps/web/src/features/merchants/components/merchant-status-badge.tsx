import { Badge } from '@mantine/core';
import type { MerchantStatus } from '@sf/contract/merchants';
import { useTranslation } from 'react-i18next';

const COLORS: Record<MerchantStatus, string> = { active: 'green', suspended: 'orange', archived: 'gray' };

export function MerchantStatusBadge({ status }: { status: MerchantStatus }) {
  const { t } = useTranslation('merchants');
  return (
    <Badge color={COLORS[status]} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}
