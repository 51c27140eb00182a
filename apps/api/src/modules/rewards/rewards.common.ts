import type { RewardErrorCode } from '@sf/contract/rewards';
import type { ServiceDeps } from '../../lib/caller.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { localDate } from '../../lib/business-days.ts';

/** What the rewards, vouchers and voucher-use services share (kept out of their front doors). */
export const rewardError = (status: number, code: RewardErrorCode) => new AppError(status, code);

export const notFoundOf = (entity: string) => notFound(entity);

/** Today as a business date (`YYYY-MM-DD` in BUSINESS_TIME_ZONE): what a reward's window is read against. */
export const businessToday = (deps: ServiceDeps, now: Date = deps.clock.now()) => localDate(now, deps.timeZone);
