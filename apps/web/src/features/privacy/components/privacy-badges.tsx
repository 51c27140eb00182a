import { Badge, Text } from '@mantine/core';
import { PRIVACY_DEADLINE_WARNING_DAYS, type PrivacyRequest } from '@sf/contract/privacy';
import { useTranslation } from 'react-i18next';

const STATUS_COLORS: Record<PrivacyRequest['status'], string> = { open: 'blue', in_progress: 'yellow', done: 'green', rejected: 'gray' };

export function PrivacyStatusBadge({ status }: { status: PrivacyRequest['status'] }) {
  const { t } = useTranslation('privacy');
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** Days left; under a week (or overdue) it stands out, in words as well as colour. */
export function DaysLeft({ request }: { request: PrivacyRequest }) {
  const { t } = useTranslation('privacy');
  // In the size of where it stands (a list's cell, the request's drawer).
  if (request.daysLeft === null) return <Text inherit c="dimmed">—</Text>;
  const isUrgent = request.daysLeft < PRIVACY_DEADLINE_WARNING_DAYS;
  const text = request.daysLeft < 0 ? t('daysOverdue', { count: -request.daysLeft }) : t('daysLeft', { count: request.daysLeft });
  return isUrgent ? (
    <Badge color="red.9" variant="filled" title={t('urgent')}>
      {text}
    </Badge>
  ) : (
    <Text inherit>{text}</Text>
  );
}

export function customerLabel(request: PrivacyRequest, erasedText: string): string {
  return request.customerStatus === 'erased' || request.customerName === '' ? `${erasedText} · ${request.customerCardNumber}` : `${request.customerName} · ${request.customerCardNumber}`;
}
