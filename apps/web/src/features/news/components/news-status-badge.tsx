import { Badge } from '@mantine/core';
import type { NewsStatus } from '@sf/contract/news';
import { useTranslation } from 'react-i18next';

const COLORS: Record<NewsStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  published: 'green',
  archived: 'orange',
};

export function NewsStatusBadge({ status }: { status: NewsStatus }) {
  const { t } = useTranslation('news');
  return (
    <Badge color={COLORS[status]} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}
