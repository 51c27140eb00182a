import type { Language } from '@sf/contract/app-info';
import { ALLOWED_PLACEHOLDERS_TEXT, PLACEHOLDER_PATTERN, SERVICE_EMAIL_PLACEHOLDERS, unknownPlaceholder, type ServiceEmailKind, type ServiceEmailPlaceholder } from '@sf/contract/service-emails';
import { validationFailed, type FieldIssue } from '../../lib/errors.ts';

/** The texts a program starts with (and keeps until it edits them), per kind and language. */
export const DEFAULT_TEXTS: Record<ServiceEmailKind, Record<Language, { subject: string; body: string }>> = {
  welcome: {
    it: {
      subject: 'Benvenuto in {{programma}}, {{nome}}',
      body: 'Ciao {{nome}},\n\nbenvenuto in {{programma}}! La tua tessera è nel telefono: aprila da questo link e mostrala alla cassa, oppure aggiungila al tuo wallet.\n\n{{link_tessera}}\n\nIl link è personale: non inoltrarlo.',
    },
    en: {
      subject: 'Welcome to {{programma}}, {{nome}}',
      body: 'Hello {{nome}},\n\nwelcome to {{programma}}! Your card is in your phone: open it from this link and show it at the till, or add it to your wallet.\n\n{{link_tessera}}\n\nThe link is personal: do not forward it.',
    },
  },
  voucher: {
    it: {
      subject: 'Il tuo buono {{premio}} è pronto',
      body: 'Ciao {{nome}},\n\nil tuo buono per {{premio}} è pronto. Mostra questo codice alla cassa: {{codice_buono}}\n\nValidità: {{validita_buono}}.',
    },
    en: {
      subject: 'Your {{premio}} voucher is ready',
      body: 'Hello {{nome}},\n\nyour voucher for {{premio}} is ready. Show this code at the till: {{codice_buono}}\n\nValid: {{validita_buono}}.',
    },
  },
  birthday: {
    it: {
      subject: 'Buon compleanno, {{nome}}!',
      body: 'Ciao {{nome}},\n\nbuon compleanno da {{programma}}! Ti abbiamo regalato {{punti_bonus}} punti: ora il tuo saldo è {{saldo}}.',
    },
    en: {
      subject: 'Happy birthday, {{nome}}!',
      body: 'Hello {{nome}},\n\nhappy birthday from {{programma}}! We gave you {{punti_bonus}} points: your balance is now {{saldo}}.',
    },
  },
  expiring: {
    it: {
      subject: '{{nome}}, hai {{punti_in_scadenza}} punti in scadenza',
      body: 'Ciao {{nome}},\n\n{{punti_in_scadenza}} dei tuoi punti {{programma}} scadono il {{data_scadenza}}. Usali prima di allora: il tuo saldo è {{saldo}}.\n\n{{link_tessera}}',
    },
    en: {
      subject: '{{nome}}, {{punti_in_scadenza}} of your points expire soon',
      body: 'Hello {{nome}},\n\n{{punti_in_scadenza}} of your {{programma}} points expire on {{data_scadenza}}. Use them before then: your balance is {{saldo}}.\n\n{{link_tessera}}',
    },
  },
};

const KNOWN = new Set<string>(SERVICE_EMAIL_PLACEHOLDERS);

/**
 * The fields' unknown placeholders, as `unknown_placeholder` issues naming each field (400 `validation`):
 * for a preview, whose `subject` and `body` are named as the form's fields of that language. A save's
 * texts are checked by their schema (updateServiceEmailSchema), with the save's other problems.
 */
export function checkPlaceholders(fields: Record<string, string>): void {
  const issues: FieldIssue[] = [];
  for (const [field, value] of Object.entries(fields)) {
    const placeholder = unknownPlaceholder(value);
    if (placeholder !== undefined) issues.push({ field, text: 'unknown_placeholder', params: { field, placeholder, allowed: ALLOWED_PLACEHOLDERS_TEXT } });
  }
  if (issues.length > 0) throw validationFailed(issues);
}

export type PlaceholderValues = Partial<Record<ServiceEmailPlaceholder, string>>;

/** The text with each placeholder replaced by its value (empty when the message has none). */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(PLACEHOLDER_PATTERN, (_match, name: string) => (KNOWN.has(name) ? (values[name as ServiceEmailPlaceholder] ?? '') : ''));
}
