import { z } from 'zod';

/**
 * Service e-mails (issue 28): messages about the customer's own card, sent with the SERVICE consent
 * (never the marketing one). Per program each kind is on or off, with its texts in Italian and English.
 */
export const SERVICE_EMAIL_KINDS = ['welcome', 'voucher', 'birthday', 'expiring'] as const;
export const serviceEmailKindSchema = z.enum(SERVICE_EMAIL_KINDS);
export type ServiceEmailKind = (typeof SERVICE_EMAIL_KINDS)[number];

/**
 * The placeholders a text may use, `{{name}}`: any other is refused (`unknown_placeholder`, naming the
 * field). A placeholder with no value for a message (e.g. `{{codice_buono}}` in a welcome) is empty.
 */
export const SERVICE_EMAIL_PLACEHOLDERS = [
  'nome',
  'cognome',
  'programma',
  'saldo',
  'punti_in_scadenza',
  'data_scadenza',
  'link_tessera',
  'codice_buono',
  'premio',
  'validita_buono',
  'punti_bonus',
] as const;
export type ServiceEmailPlaceholder = (typeof SERVICE_EMAIL_PLACEHOLDERS)[number];

export const SERVICE_EMAIL_BOUNDS = { subjectMax: 200, bodyMax: 5000 } as const;

/** `{{ name }}`, spaces allowed inside the braces. */
export const PLACEHOLDER_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * The first `{{name}}` of a text that is none of `known`, if any. `known` defaults to the service
 * e-mails' placeholders; a campaign passes its own (CAMPAIGN_PLACEHOLDERS): one rule, each its list.
 */
export function unknownPlaceholder(text: string, known: readonly string[] = SERVICE_EMAIL_PLACEHOLDERS): string | undefined {
  for (const match of text.matchAll(PLACEHOLDER_PATTERN)) {
    const name = match[1] ?? '';
    if (!known.includes(name)) return name;
  }
  return undefined;
}

/** The placeholders as a text may write them, for the refusal's "you can use …". */
export const allowedPlaceholdersText = (known: readonly string[]) => known.map((name) => `{{${name}}}`).join(', ');
export const ALLOWED_PLACEHOLDERS_TEXT = allowedPlaceholdersText(SERVICE_EMAIL_PLACEHOLDERS);

const subject = z.string().trim().min(1).max(SERVICE_EMAIL_BOUNDS.subjectMax);
const body = z.string().trim().min(1).max(SERVICE_EMAIL_BOUNDS.bodyMax);

/**
 * A text that may use only the known placeholders. A rule of each field, not of the object nor of the
 * service: it is named together with every other problem of the same save (a blank subject no longer
 * hid the English text's unknown placeholder until the next save), by the form and by the API alike.
 * Campaigns use it too, with their own list: a `{{firstName}}` would reach every recipient as written.
 */
export function withKnownPlaceholders(text: z.ZodString, known: readonly string[] = SERVICE_EMAIL_PLACEHOLDERS) {
  const allowed = allowedPlaceholdersText(known);
  return text.superRefine((value, context) => {
    const placeholder = unknownPlaceholder(value, known);
    if (placeholder === undefined) return;
    context.addIssue({ code: 'custom', message: `Unknown placeholder {{${placeholder}}}`, params: { messageKey: 'unknownPlaceholder', placeholder, allowed } });
  });
}

export const serviceEmailSettingSchema = z.object({
  kind: serviceEmailKindSchema,
  isEnabled: z.boolean(),
  /** Plain text; a blank line starts a new paragraph. */
  subjectIt: z.string(),
  bodyIt: z.string(),
  subjectEn: z.string(),
  bodyEn: z.string(),
  /** False while the program still uses the default texts. */
  isCustomised: z.boolean(),
  version: z.number().int(),
});
export type ServiceEmailSetting = z.infer<typeof serviceEmailSettingSchema>;
export const serviceEmailSettingsSchema = z.object({ items: z.array(serviceEmailSettingSchema) });

export const updateServiceEmailSchema = z.strictObject({
  isEnabled: z.boolean(),
  subjectIt: withKnownPlaceholders(subject),
  bodyIt: withKnownPlaceholders(body),
  subjectEn: withKnownPlaceholders(subject),
  bodyEn: withKnownPlaceholders(body),
  /** The version read (0 when the program had no row yet: the defaults). */
  version: z.number().int().min(0),
});
export type UpdateServiceEmail = z.infer<typeof updateServiceEmailSchema>;

export const serviceEmailKindParamSchema = z.object({ id: z.uuid(), kind: serviceEmailKindSchema });

/** A preview with a real customer's values (the texts as typed, saved or not). */
export const previewServiceEmailSchema = z.strictObject({
  customerId: z.uuid(),
  language: z.enum(['it', 'en']),
  subject,
  body,
});
export type PreviewServiceEmail = z.infer<typeof previewServiceEmailSchema>;
export const serviceEmailPreviewSchema = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type ServiceEmailPreview = z.infer<typeof serviceEmailPreviewSchema>;
