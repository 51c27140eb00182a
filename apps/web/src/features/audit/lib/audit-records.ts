import type { AuditListEntry } from '@sf/contract/audit';
import type { TFunction } from 'i18next';

/** The screens that open a record, by its kind: its own page, or its list with the record's drawer open. */
const RECORD_PAGES: Record<string, (id: string) => string> = {
  customer: (id) => `/customers/${id}`,
  merchant: (id) => `/merchants?merchant=${id}`,
  program: (id) => `/programs?program=${id}`,
  reward: (id) => `/rewards/${id}`,
  news_post: (id) => `/news?post=${id}`,
  campaign: (id) => `/campaigns?campaign=${id}`,
};

/**
 * The record's name as the API gave it (`record`, while it exists): an erased customer's is gone by
 * design, so a word says so. Nothing for a record gone since, or of a kind without names.
 */
export function recordName(entry: Pick<AuditListEntry, 'record'>, t: TFunction): string | undefined {
  if (!entry.record) return undefined;
  return entry.record.isErased ? t('audit:erasedCustomer') : (entry.record.name ?? undefined);
}

/** Where the record opens, while it exists (the API named it) and its kind has a screen. */
export function recordPage(entry: Pick<AuditListEntry, 'record' | 'entityType' | 'entityId'>): string | undefined {
  if (!entry.record || entry.entityId === null || !Object.hasOwn(RECORD_PAGES, entry.entityType)) return undefined;
  return RECORD_PAGES[entry.entityType]?.(encodeURIComponent(entry.entityId));
}
