import type { Reward } from '@sf/contract/rewards';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format.ts';

const SHOWN = ['available', 'issued', 'used'] as const;

/**
 * "3 disponibili · 1 assegnato · 0 usati": each figure agrees with its own word, and keeps to its word's
 * line when a narrow cell breaks the text (no-break spaces inside each part: never a "0" left at a
 * line's end with "usati" below).
 */
export function VoucherCounts({ counts }: { counts: Reward['vouchers'] }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  return SHOWN.map((status) => t(`voucherCount.${status}`, { count: counts[status], formatted: format.number(counts[status]) }).replaceAll(' ', '\u00a0')).join(' · ');
}
