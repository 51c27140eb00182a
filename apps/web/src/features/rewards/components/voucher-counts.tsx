import type { Reward } from '@sf/contract/rewards';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format.ts';

const SHOWN = ['available', 'issued', 'used'] as const;

/** "3 disponibili · 1 assegnato · 0 usati": each figure agrees with its own word. */
export function VoucherCounts({ counts }: { counts: Reward['vouchers'] }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  return SHOWN.map((status) => t(`voucherCount.${status}`, { count: counts[status], formatted: format.number(counts[status]) })).join(' · ');
}
