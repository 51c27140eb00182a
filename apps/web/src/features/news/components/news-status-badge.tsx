import type { NewsStatus } from '@sf/contract/news';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';

const COLORS: Record<NewsStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  published: 'green',
  archived: 'orange',
};

export function NewsStatusBadge({ status }: { status: NewsStatus }) {
  const { t } = useTranslation('news');
  return <StatusBadge color={COLORS[status]}>{t(`status.${status}`)}</StatusBadge>;
}
