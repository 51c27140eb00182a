import type { AuditListEntry, AuditRecord } from '@sf/contract/audit';
import { showValue, type AuditWordsContext } from './audit-words.ts';

/** The screens that open a record, by its kind: its own page, or its list with the record's drawer open. */
const RECORD_PAGES: Record<string, (id: string) => string> = {
  customer: (id) => `/customers/${id}`,
  merchant: (id) => `/merchants?merchant=${id}`,
  program: (id) => `/programs?program=${id}`,
  reward: (id) => `/rewards/${id}`,
  news_post: (id) => `/news?post=${id}`,
  campaign: (id) => `/campaigns?campaign=${id}`,
};

type Piece = 'name' | 'kind' | 'amount' | 'program' | 'code';

/**
 * The order of a record's pieces, by its kind: who first where a person is its name ("Mario Rossi ·
 * Circuito Centro Storico"), what first where the kind is ("Accesso · Mario Rossi", a request is
 * known by its kind). The same in both languages: the pieces are names and words, not a sentence.
 */
const PIECES: Record<string, Piece[]> = {
  ledger_entry: ['name', 'amount', 'program'],
  privacy_request: ['kind', 'name'],
};
const USUAL_PIECES: Piece[] = ['name', 'kind', 'amount', 'program', 'code'];

/** A ledger entry's points (or stamps) signed, with their unit: "+25 punti", "-1 timbro". */
function amountOf(record: AuditRecord, words: AuditWordsContext): string | undefined {
  const { points = 0, stamps = 0 } = record.parts ?? {};
  if (record.parts?.points === undefined && record.parts?.stamps === undefined) return undefined;
  const signed = (value: number) => `${value > 0 ? '+' : ''}${words.format.number(value)}`;
  const amounts = [
    ...(points !== 0 || stamps === 0 ? [words.t('audit:records.points', { count: Math.abs(points), value: signed(points) })] : []),
    ...(stamps !== 0 ? [words.t('audit:records.stamps', { count: Math.abs(stamps), value: signed(stamps) })] : []),
  ];
  return amounts.join(', ');
}

/**
 * A record as the API named it, in the reader's words: its name (an erased customer's is gone by
 * design, so a word says so), then what else names a record of its kind (its program, its points, its
 * code, its kind in the word its own screen uses). `kind` is the record's kind (`membership`).
 */
export function recordText(record: AuditRecord, kind: string, words: AuditWordsContext): string | undefined {
  const name = record.isErased ? words.t('audit:erasedCustomer') : (record.name ?? undefined);
  const parts = record.parts;
  if (!parts) return name;
  const piece: Record<Piece, string | undefined> = {
    name,
    kind: parts.kind === undefined ? undefined : (showValue(words, parts.kind, { entityType: kind, field: 'kind' }) as { text: string }).text,
    amount: amountOf(record, words),
    program: parts.program,
    code: parts.code,
  };
  const texts = (PIECES[kind] ?? USUAL_PIECES).map((which) => piece[which]).filter((text): text is string => text !== undefined && text !== '');
  return texts.length > 0 ? texts.join(' · ') : undefined;
}

/** The entry's record in words; nothing for a record gone since, or of a kind without names. */
export function recordName(entry: Pick<AuditListEntry, 'record' | 'entityType'>, words: AuditWordsContext): string | undefined {
  return entry.record ? recordText(entry.record, entry.entityType, words) : undefined;
}

/** Where the record opens, while it exists (the API named it) and its kind has a screen. */
export function recordPage(entry: Pick<AuditListEntry, 'record' | 'entityType' | 'entityId'>): string | undefined {
  if (!entry.record || entry.entityId === null || !Object.hasOwn(RECORD_PAGES, entry.entityType)) return undefined;
  return RECORD_PAGES[entry.entityType]?.(encodeURIComponent(entry.entityId));
}
