import type { Language } from '@sf/contract/app-info';
import { auditIdKind, type AuditReferenceKind } from '@sf/contract/audit';
import { fieldLabel } from '@sf/contract/messages';
import type { TFunction } from 'i18next';
import type { Formatters } from '../../../lib/formatters.ts';

/**
 * An audit entry's before/after in the operator's words: a field by the label its form and the API's
 * messages give it (`fieldLabel`, packages/contract), a stored value by the word its own screen uses
 * (the catalogues below), an instant on the user's clock, cents in euro, a yes/no as Sì/No, an object as
 * its labelled parts. What has no label or word yet (a field added later) shows as it is stored: never
 * a crash, never an empty cell.
 */

/** A value as it is shown: one line of text, or labelled parts (an object), or items (a list of objects). */
export type ShownValue = { kind: 'text'; text: string } | { kind: 'parts'; parts: { key: string; label: string; value: ShownValue }[] };

/**
 * Where a stored value's word is, by the entity's kind and the field: `status` is a merchant's "Sospeso"
 * but a proof's "Rifiutata". The words are those of each screen's own catalogue (its badges and filters).
 */
const WORDS_BY_ENTITY: Record<string, Record<string, string>> = {
  merchant: { status: 'merchants:status' },
  customer: { status: 'customers:status', kind: 'privacy:kind' },
  program: { status: 'programs:status', type: 'programs:type' },
  reward: { status: 'rewards:status' },
  voucher: { status: 'rewards:voucherStatus' },
  news_post: { status: 'news:status', audience: 'news:audience' },
  social_proof: { status: 'approvals:status', kind: 'approvals:kind' },
  privacy_request: { status: 'privacy:status', kind: 'privacy:kind' },
  user: { status: 'staff:status', role: 'staff:role' },
  staff_invitation: { role: 'staff:role', status: 'staff:invitations.status' },
  campaign: { status: 'campaigns:status' },
  api_key: { kind: 'apiKeys:kind', status: 'apiKeys:status' },
  import: { kind: 'imports:kind', status: 'imports:status' },
  ledger_entry: { kind: 'ledger:kind', source: 'ledger:source' },
};

/** The fields whose values have one meaning whatever the entity. */
const WORDS_BY_FIELD: Record<string, string> = {
  category: 'merchants:category',
  language: 'customers:language',
  purpose: 'customers:purpose',
  purposes: 'customers:purpose',
  withdrawn: 'customers:purpose',
  channel: 'customers:channel',
  tierWindow: 'programs:tierWindow',
  policy: 'programs:expiry',
  source: 'ledger:source',
};

/** The keys inside these objects are stored values themselves (a consent's purpose, the retention purge's), not fields. */
const KEYS_BY_PARENT: Record<string, string> = { consents: 'customers:purpose', purposes: 'customers:purpose' };

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A decimal kept as text to stay exact (a program's points per euro, a tier's multiplier). */
const DECIMAL = /^-?\d+\.\d+$/;

/**
 * The names of the records a value points at, by their kind (`AUDIT_ID_FIELDS`, packages/contract: a
 * `customerId` holds a customer's id): the API names them with the entry (`references`); an id it did
 * not name (a record deleted since) stays as it is.
 */
export type IdNames = Partial<Record<AuditReferenceKind, (id: string) => string | undefined>>;

export type AuditWordsContext = { t: TFunction; exists: (key: string) => boolean; language: Language; format: Formatters; idNames?: IdNames | undefined };

/** The catalogue's word for a stored value, if it has one. */
function wordOf(ctx: AuditWordsContext, prefix: string | undefined, value: string): string | undefined {
  if (!prefix) return undefined;
  const key = `${prefix}.${value}`;
  return ctx.exists(key) ? ctx.t(key) : undefined;
}

/**
 * A field's label as the forms and the API's messages say it (`fieldLabel`); for a field no form has
 * (`updatedAt`, `revokedSessions`), the audit's own words (`audit:fields`); else its stored name.
 */
export function fieldName(ctx: Pick<AuditWordsContext, 't' | 'exists' | 'language'>, field: string): string {
  const label = fieldLabel(field, ctx.language);
  if (label !== field) return label;
  return ctx.exists(`audit:fields.${field}`) ? ctx.t(`audit:fields.${field}`) : field;
}

/**
 * One value in words. `entityType` and `field` pick the words of a stored value; `parent` is the field
 * holding this one (for the keys of a consent object).
 */
export function showValue(ctx: AuditWordsContext, value: unknown, where: { entityType: string; field: string }): ShownValue {
  const text = (shown: string): ShownValue => ({ kind: 'text', text: shown });
  if (value === undefined || value === null || value === '') return text('—');
  if (typeof value === 'boolean') return text(ctx.t(value ? 'lists:yes' : 'lists:no'));
  const idKind = auditIdKind(where.field);
  const named = idKind && (typeof value === 'string' || typeof value === 'number') ? ctx.idNames?.[idKind]?.(String(value)) : undefined;
  if (named !== undefined) return text(named);
  if (typeof value === 'number') {
    // Money is kept in cents (minSpendCents, amountCents): shown in euro as every screen does.
    return text(/Cents$/.test(where.field) ? ctx.format.currency(value / 100) : ctx.format.number(value));
  }
  if (typeof value === 'string') {
    const word =
      wordOf(ctx, WORDS_BY_ENTITY[where.entityType]?.[where.field], value) ??
      wordOf(ctx, WORDS_BY_FIELD[where.field], value);
    if (word !== undefined) return text(word);
    if (INSTANT.test(value)) return text(ctx.format.dateTime(value));
    if (DAY.test(value)) return text(ctx.format.day(value));
    if (DECIMAL.test(value)) return text(ctx.format.number(Number(value)));
    return text(value);
  }
  if (Array.isArray(value)) {
    // A list of plain values reads as one line ("Marketing, Profilazione"); a list of objects as its items.
    if (value.every((item) => item === null || typeof item !== 'object')) {
      return text(value.length === 0 ? '—' : value.map((item) => (showValue(ctx, item, where) as { text: string }).text).join(', '));
    }
    return { kind: 'parts', parts: value.map((item, index) => ({ key: String(index), label: `${index + 1}.`, value: showValue(ctx, item, where) })) };
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return text('—');
    return {
      kind: 'parts',
      parts: entries.map(([key, inner]) => {
        const label = fieldName(ctx, key);
        const asValue = label === key ? wordOf(ctx, KEYS_BY_PARENT[where.field], key) : undefined;
        return { key, label: asValue ?? label, value: showValue(ctx, inner, { entityType: where.entityType, field: key }) };
      }),
    };
  }
  return text(String(value));
}
