import type { ProgramType } from '@sf/contract/programs';
import type { TFunction } from 'i18next';

/**
 * "829 punti", "7 timbri", or both: only what the program counts. A stamp card also shows points when it
 * holds some (a referral bonus pays points in any program), and a points program its stamps likewise.
 */
export function balanceWords(t: TFunction<'ledger'>, formatNumber: (value: number) => string, type: ProgramType | undefined, balance: number, stamps: number): string {
  const words: string[] = [];
  if (type !== 'stamps' || balance !== 0) words.push(t('dialog.balancePoints', { count: balance, value: formatNumber(balance) }));
  if (type === 'stamps' || stamps !== 0) words.push(t('dialog.balanceStamps', { count: stamps, value: formatNumber(stamps) }));
  return words.join(', ');
}

/** "punto" or "punti", "timbro" or "timbri": the unit's word agreeing with `count`. */
export function unitWord(t: TFunction<'ledger'>, isStamps: boolean, count: number): string {
  return t(isStamps ? 'dialog.unitStamps' : 'dialog.unitPoints', { count });
}
