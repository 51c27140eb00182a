import type { Language } from './app-info.ts';
import { loyaltyFieldLabels } from './loyalty-labels.ts';

/**
 * The validation and sign-in texts of S12 in both languages. Shared by the API (400 answers in the
 * language of Accept-Language) and the web forms, so the same words appear on both sides.
 */
export const MESSAGE_KEYS = [
  'invalid',
  'required',
  'minLength',
  'maxLength',
  'termsRequired',
  'notFound',
  'loginIncorrect',
  'requiredField',
  'minFieldLength',
  'maxFieldLength',
  'fieldInvalid',
  'commonPassword',
  'samePassword',
  'positive',
  'minValue',
  'maxValue',
  'maxAmount',
  'taken',
  'tierNameRepeated',
  'tierAbovePrevious',
  'notBefore',
  'unknownPlaceholder',
] as const;

export type MessageKey = (typeof MESSAGE_KEYS)[number];

/**
 * `after`: the field this one may not come before (a field name, said by its label). `placeholder`:
 * a `{{name}}` a text may not use, `allowed` the ones it may.
 */
type Params = { field?: string; min?: number | string; max?: number | string; after?: string; placeholder?: string; allowed?: string };

/**
 * A bound as the reader writes numbers ("99.999" in Italian, "99,999" in English), so that a server
 * text matches the number on the screen. Lengths stay plain (they are small).
 */
export function formatBound(value: number | string | undefined, language: Language): string {
  if (typeof value !== 'number') return String(value ?? '');
  return new Intl.NumberFormat(language === 'it' ? 'it-IT' : 'en-US', { useGrouping: 'always', maximumFractionDigits: 2 }).format(value);
}

/** An amount of euro as the app shows money ("100.000,00 €", "€100,000.00"), for the bounds of amounts. */
export function formatEuro(value: number | string | undefined, language: Language): string {
  if (typeof value !== 'number') return String(value ?? '');
  return new Intl.NumberFormat(language === 'it' ? 'it-IT' : 'en-US', { style: 'currency', currency: 'EUR', useGrouping: 'always' }).format(value);
}

/** Italian agreement: "Partita IVA non è valida" but "Codice fiscale non è valido". */
function isFeminine(label: string | undefined): boolean {
  return label !== undefined && (loyaltyFieldLabels.feminine as ReadonlySet<string>).has(label);
}

/** Agreement with a plural label: "Esercenti sono obbligatori", "Merchants are required". */
function isPlural(label: string | undefined): boolean {
  return label !== undefined && (loyaltyFieldLabels.plural as ReadonlySet<string>).has(label);
}

/** The Italian word agreeing with the label: masculine, feminine, masculine plural, feminine plural. */
function agreeing(label: string | undefined, forms: [string, string, string, string]): string {
  return forms[(isPlural(label) ? 2 : 0) + (isFeminine(label) ? 1 : 0)]!;
}

const catalogue: Record<Language, Record<MessageKey, (p: Params) => string>> = {
  en: {
    invalid: (p) => `${p.field} ${isPlural(p.field) ? 'are' : 'is'} not valid`,
    required: (p) => `${p.field} ${isPlural(p.field) ? 'are' : 'is'} required`,
    minLength: (p) => `${p.field} minimum length is ${p.min}`,
    maxLength: (p) => `${p.field} maximum length is ${p.max}`,
    termsRequired: () => 'Accepting terms & conditions are required',
    notFound: (p) => `The requested ${p.field} is not found`,
    loginIncorrect: () => 'The login detail is incorrect',
    requiredField: () => 'Required field',
    minFieldLength: (p) => `Minimum field length: ${p.min}`,
    maxFieldLength: (p) => `Maximum field length: ${p.max}`,
    fieldInvalid: () => 'Field is not valid',
    commonPassword: (p) => `${p.field} is too common: choose a less predictable one`,
    samePassword: () => 'The new password must be different from the current one',
    positive: (p) => `${p.field} must be greater than zero`,
    minValue: (p) => `${p.field} must be at least ${formatBound(p.min, 'en')}`,
    maxValue: (p) => `${p.field} must be at most ${formatBound(p.max, 'en')}`,
    maxAmount: (p) => `${p.field} must be at most ${formatEuro(p.max, 'en')}`,
    taken: (p) => `${p.field} is already in use`,
    tierNameRepeated: () => 'Another tier has this name: each tier needs its own',
    tierAbovePrevious: (p) => `${p.field} must be more than ${formatBound(p.min, 'en')}, the previous tier's`,
    notBefore: (p) => `${p.field}: the date cannot come before ${p.after}`,
    unknownPlaceholder: (p) => `${p.field}: there is no placeholder {{${p.placeholder}}} (you can use ${p.allowed})`,
  },
  it: {
    invalid: (p) => `${p.field} non ${isPlural(p.field) ? 'sono' : 'è'} ${agreeing(p.field, ['valido', 'valida', 'validi', 'valide'])}`,
    required: (p) => `${p.field} ${isPlural(p.field) ? 'sono' : 'è'} ${agreeing(p.field, ['obbligatorio', 'obbligatoria', 'obbligatori', 'obbligatorie'])}`,
    minLength: (p) => `La lunghezza minima di ${p.field} è ${p.min}`,
    maxLength: (p) => `La lunghezza massima di ${p.field} è ${p.max}`,
    termsRequired: () => 'È necessario accettare i termini e le condizioni',
    notFound: (p) => `${p.field} ${agreeing(p.field, ['richiesto non trovato', 'richiesta non trovata', 'richiesti non trovati', 'richieste non trovate'])}`,
    loginIncorrect: () => 'I dati di accesso non sono corretti',
    requiredField: () => 'Campo obbligatorio',
    minFieldLength: (p) => `Lunghezza minima del campo: ${p.min}`,
    maxFieldLength: (p) => `Lunghezza massima del campo: ${p.max}`,
    fieldInvalid: () => 'Il campo non è valido',
    commonPassword: (p) => `${p.field} è troppo comune: scegline una meno prevedibile`,
    samePassword: () => 'La nuova password deve essere diversa da quella attuale',
    positive: (p) => `${p.field} deve essere maggiore di zero`,
    minValue: (p) => `${p.field} deve essere almeno ${formatBound(p.min, 'it')}`,
    maxValue: (p) => `${p.field} deve essere al massimo ${formatBound(p.max, 'it')}`,
    maxAmount: (p) => `${p.field} deve essere al massimo ${formatEuro(p.max, 'it')}`,
    taken: (p) => `${p.field} già in uso`,
    tierNameRepeated: () => 'Un altro livello ha già questo nome: ogni livello ne vuole uno diverso',
    tierAbovePrevious: (p) => `${p.field} deve essere più di ${formatBound(p.min, 'it')}, quelli del livello precedente`,
    notBefore: (p) => `${p.field}: la data non può venire prima di ${p.after}`,
    unknownPlaceholder: (p) => `${p.field}: il segnaposto {{${p.placeholder}}} non esiste (si possono usare ${p.allowed})`,
  },
};

/** Field labels as users read them, per language. Unknown fields fall back to their own name. */
const fieldLabels: Record<Language, Record<string, string>> = {
  en: {
    email: 'Email',
    password: 'Password',
    firstName: 'First name',
    lastName: 'Last name',
    acceptTerms: 'Terms & conditions',
    token: 'Token',
    title: 'Title',
    summary: 'Summary',
    body: 'Body',
    audience: 'Audience',
    audienceId: 'Program or merchant of the audience',
    status: 'Status',
    publishAt: 'Publish date',
    pinned: 'Pinned',
    coverImage: 'Cover image',
    refresh_token: 'Refresh token',
    grant_type: 'Grant type',
    currentPassword: 'Current password',
    newPassword: 'New password',
    // The confirmations, named as their forms label them (invitation; reset and change of password).
    confirmPassword: 'Confirm the password',
    confirmNewPassword: 'Confirm the new password',
    displayName: 'Display name',
    fullname: 'Full name',
    phone: 'Phone',
    post: 'Post',
    user: 'User',
    invitation: 'Invitation',
    role: 'Role',
    coverImageId: 'Cover image',
    file: 'File',
    version: 'Version',
    action: 'Action',
    q: 'Search',
    sort: 'Sort',
    order: 'Order',
    page: 'Page',
    pageSize: 'Page size',
    actor: 'User',
    entity: 'Entity',
    from: 'From',
    to: 'To',
    ...loyaltyFieldLabels.en,
    customerId: 'Customer',
    programId: 'Program',
    merchantId: 'Merchant',
    kind: 'Kind',
    amountCents: 'Amount',
    points: 'Points',
    stamps: 'Stamps',
    reason: 'Reason',
    'idempotency-key': 'Idempotency-Key',
    privacyRequest: 'Privacy request',
    campaign: 'Campaign',
    subject: 'Subject',
    subjectIt: 'Subject (Italian)',
    bodyIt: 'Text (Italian)',
    subjectEn: 'Subject (English)',
    bodyEn: 'Text (English)',
    preheader: 'Preheader',
    inactiveDays: 'Days without purchases',
    birthdayMonth: 'Birthday month',
    joinedAfter: 'Joined from',
    scheduledAt: 'Send at',
    importJob: 'Import',
    mapping: 'Column mapping',
    dryRun: 'Dry run',
    extensionReason: 'Extension reason',
    notes: 'Notes',
    receivedAt: 'Date received',
    isRejected: 'Rejected',
    count: 'Number of codes',
    // What a 404 names (issue 26: never a raw key such as "voucher richiesto non trovato").
    reward: 'Reward',
    voucher: 'Voucher',
    entry: 'Entry',
    apiKey: 'API key',
  },
  it: {
    email: 'Email',
    password: 'Password',
    firstName: 'Nome',
    lastName: 'Cognome',
    acceptTerms: 'Termini e condizioni',
    token: 'Token',
    title: 'Titolo',
    summary: 'Sommario',
    body: 'Testo',
    audience: 'Destinatari',
    audienceId: 'Programma o esercente dei destinatari',
    status: 'Stato',
    publishAt: 'Data di pubblicazione',
    pinned: 'In evidenza',
    coverImage: 'Immagine di copertina',
    refresh_token: 'Refresh token',
    grant_type: 'Tipo di grant',
    currentPassword: 'Password attuale',
    newPassword: 'Nuova password',
    confirmPassword: 'Conferma la password',
    confirmNewPassword: 'Conferma la nuova password',
    displayName: 'Nome visualizzato',
    fullname: 'Nome completo',
    phone: 'Telefono',
    post: 'Post',
    user: 'Utente',
    invitation: 'Invito',
    role: 'Ruolo',
    coverImageId: 'Immagine di copertina',
    file: 'File',
    version: 'Versione',
    action: 'Azione',
    q: 'Ricerca',
    sort: 'Ordinamento',
    order: 'Ordine',
    page: 'Pagina',
    pageSize: 'Elementi per pagina',
    actor: 'Utente',
    entity: 'Entità',
    from: 'Dal',
    to: 'Al',
    ...loyaltyFieldLabels.it,
    customerId: 'Cliente',
    programId: 'Programma',
    merchantId: 'Esercente',
    kind: 'Tipo',
    amountCents: 'Importo',
    points: 'Punti',
    stamps: 'Timbri',
    reason: 'Motivo',
    'idempotency-key': 'Idempotency-Key',
    privacyRequest: 'Richiesta privacy',
    campaign: 'Campagna',
    subject: 'Oggetto',
    subjectIt: 'Oggetto (italiano)',
    bodyIt: 'Testo (italiano)',
    subjectEn: 'Oggetto (inglese)',
    bodyEn: 'Testo (inglese)',
    preheader: 'Anteprima',
    inactiveDays: 'Giorni senza acquisti',
    birthdayMonth: 'Mese del compleanno',
    joinedAfter: 'Iscritto dal',
    scheduledAt: 'Invia il',
    importJob: 'Importazione',
    mapping: 'Abbinamento colonne',
    dryRun: 'Prova',
    extensionReason: 'Motivo della proroga',
    notes: 'Note',
    receivedAt: 'Data di ricezione',
    isRejected: 'Respinta',
    count: 'Numero di codici',
    reward: 'Premio',
    voucher: 'Buono',
    entry: 'Movimento',
    apiKey: 'Chiave API',
  },
};

/**
 * Every field that has a label, in either language (for the checks of the texts, error-texts.test.ts).
 * A function, not a constant: computed at load, it would be carried and run by the sign-in page too.
 */
export function labelledFields(): string[] {
  return [...new Set([...Object.keys(fieldLabels.en), ...Object.keys(fieldLabels.it)])];
}

/**
 * Own properties only: a field named by the client (`{"social":{"constructor":1}}`) must not reach
 * Object.prototype and print "function Object() { [native code] }" (issue 30).
 */
export function fieldLabel(field: string, language: Language): string {
  const labels = fieldLabels[language];
  return Object.hasOwn(labels, field) ? (labels[field] ?? field) : field;
}

export function message(key: MessageKey, language: Language, params: Params = {}): string {
  const label = params.field === undefined ? undefined : fieldLabel(params.field, language);
  const after = params.after === undefined ? {} : { after: fieldLabel(params.after, language) };
  return catalogue[language][key]({ ...params, field: label, ...after });
}

/** Picks `it` or `en` from an Accept-Language header; Italian is the default (S13). */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return 'it';
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.find((r) => r.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((entry) => !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith('it')) return 'it';
    if (tag.startsWith('en')) return 'en';
  }
  return 'it';
}
