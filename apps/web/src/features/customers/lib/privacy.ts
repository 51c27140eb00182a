/**
 * The privacy notice version staff record with a consent by default (they can change it in the
 * dialog when the customer signed an older one).
 */
export const CURRENT_NOTICE_VERSION = '2026-01';
