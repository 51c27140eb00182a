import { isApiError } from './api-error.ts';

/**
 * A stale `version` (409). An edit form shows it in its own notice, with the way to reload and re-apply
 * the user's changes (`components/ui/version-conflict.tsx`); its update call names
 * `VERSION_CONFLICT_CODES` in `inlineCodes` so that the HTTP client raises no toast saying it again.
 * Apart from `api-error.ts`, which the sign-in page carries at its byte ceiling: only the signed-in
 * area's edit forms need these.
 */
export const VERSION_CONFLICT_CODES = ['version_conflict'] as const;

export function isVersionConflict(error: unknown): boolean {
  return isApiError(error) && error.code === 'version_conflict';
}
