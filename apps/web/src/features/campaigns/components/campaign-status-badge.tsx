import type { CampaignStatus } from '@sf/contract/campaigns';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';

const COLORS: Record<CampaignStatus, string> = { draft: 'gray', scheduled: 'blue', sending: 'orange', sent: 'green', cancelled: 'red' };

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation('campaigns');
  return <StatusBadge color={COLORS[status]}>{t(`status.${status}`)}</StatusBadge>;
}
