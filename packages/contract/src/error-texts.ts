import type { Language } from './app-info.ts';
import type { ImportErrorCode } from './imports.ts';
import { fieldLabel, formatBound, message } from './messages.ts';

/**
 * The one catalogue of the API's error texts, per language (CONTRIBUTING.md: an error is a code and
 * parameters at the throw site; the error handler translates it once, in the caller's language). A
 * key is the error's code, or a finer key where one code has several texts (`not_found` names what
 * was not found; `invalid_state` says why). Field texts ("Nome è obbligatorio") are messages.ts'.
 */
export type ErrorParams = Record<string, string | number | undefined>;
type Text = string | ((p: ErrorParams) => string);

const unit = (p: ErrorParams, language: Language) =>
  p['unit'] === 'stamps' ? (language === 'it' ? 'timbri' : 'stamps') : language === 'it' ? 'punti' : 'points';

const texts = {
  // ---- Requests, sessions and the server ----
  validation: { it: 'Il campo non è valido', en: 'Field is not valid' },
  request_invalid: { it: 'La richiesta non è valida', en: 'The request is not valid' },
  body_invalid: { it: 'Il corpo della richiesta non è valido', en: 'The request body is not valid' },
  route_not_found: { it: (p) => `Nessuna risorsa ${p['method']} ${p['path']}`, en: (p) => `No route ${p['method']} ${p['path']}` },
  method_not_allowed: { it: (p) => `Il metodo ${p['method']} non è consentito qui`, en: (p) => `Method ${p['method']} is not allowed here` },
  unauthenticated: { it: 'Accedi per continuare', en: 'Sign in to continue' },
  token_expired: { it: 'La sessione è scaduta', en: 'The session token has expired' },
  invalid_token: { it: 'Il token di sessione non è valido', en: 'The session token is not valid' },
  account_inactive: { it: "L'account non è attivo", en: 'The account is not active' },
  session_ended: { it: 'La sessione è terminata', en: 'The session has ended' },
  token_revoked: { it: 'Il token di sessione non è più valido', en: 'The session token is no longer valid' },
  token_mismatch: { it: 'Il token indicato non corrisponde a quello della sessione', en: 'The token in the query does not match the session token' },
  forbidden: { it: 'Non hai i permessi per questa operazione', en: 'You are not allowed to do this' },
  csrf: { it: 'Il token anti-falsificazione manca o non corrisponde', en: 'The forgery-protection token is missing or does not match' },
  invalid_credentials: { it: (_p) => message('loginIncorrect', 'it'), en: (_p) => message('loginIncorrect', 'en') },
  // A person meets these on a page they reached from an e-mail: they name the link, not a token.
  invalid_reset_token: {
    it: 'Questo link di reimpostazione non è valido o è scaduto: richiedine uno nuovo',
    en: 'This reset link is not valid or has expired: ask for a new one',
  },
  invalid_confirmation_token: {
    it: 'Questo link di conferma non è valido o è scaduto',
    en: 'This confirmation link is not valid or has expired',
  },
  invalid_grant: { it: 'Il refresh token non è valido: accedi di nuovo', en: 'The refresh token is not valid; sign in again' },
  rate_limited: { it: 'Troppe richieste: riprova più tardi', en: 'Too many requests, try again later' },
  payload_too_large: { it: 'La richiesta è troppo grande', en: 'The request is too large' },
  file_too_large: {
    it: (p) => `Il file supera ${formatBound(p['megabytes'], 'it')} MB`,
    en: (p) => `The file is larger than ${formatBound(p['megabytes'], 'en')} MB`,
  },
  upload_quota: {
    it: (p) => `Raggiunta la quota di caricamento: al massimo ${formatBound(p['megabytes'], 'it')} MB di immagini ${p['per'] === 'apiKey' ? 'per chiave API in attesa delle prove' : 'per utente'}`,
    en: (p) => `Upload quota reached: at most ${formatBound(p['megabytes'], 'en')} MB of images per ${p['per'] === 'apiKey' ? 'API key waiting for their proofs' : 'user'}`,
  },
  unreadable_csv: {
    it: (p) => `File non è valido: non è un CSV leggibile alla riga ${p['line']}`,
    en: (p) => `File is not valid: not a readable CSV at line ${p['line']}`,
  },
  unsupported_media_type: { it: 'Tipo di contenuto non supportato', en: 'Unsupported content type' },
  json_required: {
    it: (p) => `Tipo di contenuto non supportato (${p['type']}): invia il corpo in JSON, con l'intestazione Content-Type: application/json`,
    en: (p) => `Unsupported content type (${p['type']}): send the body as JSON, with the header Content-Type: application/json`,
  },
  multipart_required: {
    it: 'Invia il file come multipart/form-data nel campo "file"',
    en: 'Send the file as multipart/form-data in the field "file"',
  },
  image_type: { it: 'Sono accettate solo immagini PNG, JPEG, WebP e GIF', en: 'Only PNG, JPEG, WebP and GIF images are accepted' },
  internal: { it: 'Errore interno del server', en: 'Internal server error' },
  unavailable: { it: 'Il servizio non è momentaneamente disponibile: riprova tra poco', en: 'The service is temporarily unavailable, try again shortly' },
  shutting_down: { it: 'Il server si sta arrestando', en: 'The server is shutting down' },
  database_unreachable: { it: 'Il database non è raggiungibile', en: 'The database is not reachable' },
  identity_unavailable: {
    it: 'Il fornitore di identità non è raggiungibile: riprova tra poco',
    en: 'The identity provider cannot be reached; try again shortly',
  },
  mail_unavailable: {
    it: "Il server di posta non risponde: l'e-mail non è stata inviata. Riprova più tardi",
    en: 'The mail server is not answering: the e-mail was not sent. Try again later',
  },
  invitation_mail_failed: {
    it: "L'invito è salvato ma la sua e-mail non è partita: rinvialo più tardi",
    en: 'The invitation is saved but its e-mail could not be sent: resend it later',
  },
  // ---- Records ----
  not_found: { it: (p) => message('notFound', 'it', { field: String(p['entity'] ?? '') }), en: (p) => message('notFound', 'en', { field: String(p['entity'] ?? '') }) },
  version_conflict: {
    en: 'Someone else changed this record in the meantime: reload it and apply your changes again',
    it: 'Qualcun altro ha modificato questo dato nel frattempo: ricaricalo e applica di nuovo le modifiche',
  },
  has_ledger_entries: {
    en: 'This merchant has ledger entries and cannot be deleted: archive it instead',
    it: 'Questo esercente ha movimenti e non può essere eliminato: archivialo',
  },
  already_used: { en: 'This value is already in use', it: 'Questo valore è già in uso' },
  // ---- The card in the customer's phone (issue 27) ----
  wallet_not_configured: {
    it: (p) => `Il portafoglio ${p['wallet']} non è configurato: imposta ${p['settings']}`,
    en: (p) => `${p['wallet']} is not configured: set ${p['settings']}`,
  },
  card_unavailable: {
    it: 'Il cliente è bloccato o i suoi dati sono stati cancellati: la tessera non ha link né pass',
    en: 'The customer is blocked or erased: their card has no link and no pass',
  },
  card_email_no_address: { it: 'Il cliente non ha un indirizzo e-mail', en: 'The customer has no e-mail address' },
  card_email_no_consent: {
    it: 'Il cliente non ha dato il consenso al servizio: la tessera non si può inviare per e-mail',
    en: 'The customer has not given the service consent: the card cannot be sent by e-mail',
  },
  conflict: { en: 'This action conflicts with the current state of the record', it: 'Questa azione è in conflitto con lo stato attuale del dato' },
  entry_final: {
    it: 'Questo movimento non si può stornare (storni e scadenze sono definitivi)',
    en: 'This entry cannot be reversed (reversals and expiries are final)',
  },
  customer_not_active: { it: 'Il cliente non è attivo', en: 'The customer is not active' },
  program_not_active: { it: 'Il programma non è attivo', en: 'The program is not active' },
  // ---- Staff and invitations ----
  last_admin: {
    en: 'This is the last active administrator: appoint another administrator first',
    it: "È l'ultimo amministratore attivo: nomina prima un altro amministratore",
  },
  own_account: {
    en: 'You cannot change your own role or status: ask another administrator',
    it: 'Non puoi cambiare il tuo ruolo o il tuo stato: chiedi a un altro amministratore',
  },
  account_exists: {
    en: 'An account with this e-mail already exists: change its role in the staff list instead',
    it: "Esiste già un account con questa e-mail: cambiane il ruolo dall'elenco dello staff",
  },
  invalid_invitation_token: {
    en: 'This invitation link is not valid or has expired: ask an administrator for a new one',
    it: 'Questo link di invito non è valido o è scaduto: chiedi un nuovo invito a un amministratore',
  },
  // ---- Privacy requests and imports ----
  processing_blocked: {
    en: 'This customer restricted or objected to marketing and profiling: lift the block from the privacy request first',
    it: 'Il cliente ha chiesto la limitazione o si è opposto a marketing e profilazione: revoca prima il blocco dalla richiesta privacy',
  },
  customer_erased: { en: "This customer's data were erased", it: 'I dati di questo cliente sono stati cancellati' },
  customer_erased_unchangeable: {
    en: "This customer's data were erased and cannot be changed",
    it: 'I dati di questo cliente sono stati cancellati e non si possono modificare',
  },
  invalid_state: { en: 'This action is not possible in the current state', it: 'Questa azione non è possibile nello stato attuale' },
  // The contract's own words (messages.ts), which the schema of the texts says too.
  unknown_placeholder: {
    it: (p) => message('unknownPlaceholder', 'it', { field: String(p['field']), placeholder: String(p['placeholder']), allowed: String(p['allowed']) }),
    en: (p) => message('unknownPlaceholder', 'en', { field: String(p['field']), placeholder: String(p['placeholder']), allowed: String(p['allowed']) }),
  },
  // A send time already gone is refused, never moved to now (the editor says the same on its field).
  send_time_past: {
    it: (p) => `${fieldLabel(String(p['field'] ?? 'scheduledAt'), 'it')}: scegli un momento futuro`,
    en: (p) => `${fieldLabel(String(p['field'] ?? 'scheduledAt'), 'en')}: choose a time in the future`,
  },
  campaign_not_editable: {
    en: 'This action is not possible in the current state: the campaign is already sending, sent or cancelled',
    it: 'Questa azione non è possibile nello stato attuale: la campagna è già in invio, inviata o annullata',
  },
  campaign_not_cancellable: {
    en: 'This action is not possible in the current state: only a scheduled or sending campaign can be cancelled',
    it: 'Questa azione non è possibile nello stato attuale: si può annullare solo una campagna programmata o in invio',
  },
  campaign_empty_audience: {
    en: 'This action is not possible in the current state: no customer matches the audience',
    it: 'Questa azione non è possibile nello stato attuale: nessun cliente corrisponde al pubblico',
  },
  request_closed: {
    en: 'This action is not possible in the current state: the request is already closed',
    it: 'Questa azione non è possibile nello stato attuale: la richiesta è già chiusa',
  },
  already_extended: {
    en: 'This action is not possible in the current state: the deadline was already extended',
    it: 'Questa azione non è possibile nello stato attuale: la scadenza è già stata prorogata',
  },
  erasure_only: {
    en: 'This action is not possible in the current state: only an erasure request erases data',
    it: 'Questa azione non è possibile nello stato attuale: solo una richiesta di cancellazione cancella i dati',
  },
  block_kinds_only: {
    en: 'This action is not possible in the current state: only restriction and objection block processing',
    it: 'Questa azione non è possibile nello stato attuale: solo limitazione e opposizione bloccano il trattamento',
  },
  block_in_force: {
    en: 'This action is not possible in the current state: the block is already in force',
    it: 'Questa azione non è possibile nello stato attuale: il blocco è già in vigore',
  },
  no_block: {
    en: 'This action is not possible in the current state: no block is in force',
    it: 'Questa azione non è possibile nello stato attuale: nessun blocco in vigore',
  },
  // ---- Import row errors (the dry run's report and its errors.csv): `field` is the mapped field ----
  import_required: { it: (p) => message('required', 'it', { field: String(p['field']) }), en: (p) => message('required', 'en', { field: String(p['field']) }) },
  import_invalid: { it: (p) => message('invalid', 'it', { field: String(p['field']) }), en: (p) => message('invalid', 'en', { field: String(p['field']) }) },
  import_not_found: { it: (p) => message('notFound', 'it', { field: String(p['field']) }), en: (p) => message('notFound', 'en', { field: String(p['field']) }) },
  import_duplicate_in_file: {
    it: (p) => `${message('invalid', 'it', { field: String(p['field']) })}: valore ripetuto nel file`,
    en: (p) => `${message('invalid', 'en', { field: String(p['field']) })}: repeated in the file`,
  },
  import_already_exists: {
    it: (p) => `${fieldLabel(String(p['field']), 'it')}: valore già usato`,
    en: (p) => `${fieldLabel(String(p['field']), 'en')} is already used`,
  },
  import_consent_value: {
    it: (p) => `${message('invalid', 'it', { field: String(p['field']) })}: usa sì o no`,
    en: (p) => `${message('invalid', 'en', { field: String(p['field']) })}: use yes or no`,
  },
  // ---- Ledger ----
  insufficient_balance: {
    en: (p) => `The balance is not enough: ${formatBound(p['balance'] ?? 0, 'en')} ${unit(p, 'en')} available, ${formatBound(p['requested'] ?? 0, 'en')} requested`,
    it: (p) => `Saldo insufficiente: ${formatBound(p['balance'] ?? 0, 'it')} ${unit(p, 'it')} disponibili, ${formatBound(p['requested'] ?? 0, 'it')} richiesti`,
  },
  already_reversed: { en: 'This entry has already been reversed', it: 'Questo movimento è già stato stornato' },
  idempotency_key_reused: {
    en: 'This Idempotency-Key was already used for a different request',
    it: 'Questa Idempotency-Key è già stata usata per una richiesta diversa',
  },
  idempotency_key_in_flight: {
    en: 'A request with this Idempotency-Key is still being processed: retry shortly',
    it: 'Una richiesta con questa Idempotency-Key è ancora in corso: riprova tra poco',
  },
  // ---- Rewards and vouchers ----
  out_of_stock: { en: 'This reward is out of stock', it: 'Questo premio è esaurito' },
  reward_not_available: {
    en: 'This reward cannot be redeemed now (not active, or outside its validity window)',
    it: 'Questo premio non si può riscattare ora (non attivo o fuori dal periodo di validità)',
  },
  reward_limit_reached: {
    en: 'This customer has already had this reward as many times as allowed',
    it: 'Questo cliente ha già ricevuto questo premio il numero massimo di volte',
  },
  voucher_used: { en: 'This voucher has already been used', it: 'Questo buono è già stato usato' },
  voucher_expired: { en: 'This voucher has expired', it: 'Questo buono è scaduto' },
  voucher_not_yet_valid: { en: 'This voucher is not valid yet', it: 'Questo buono non è ancora valido' },
  voucher_not_issued: { en: 'This voucher has not been issued to a customer', it: 'Questo buono non è stato assegnato a un cliente' },
  voucher_void: { en: 'This voucher has been voided', it: 'Questo buono è stato annullato' },
  voucher_wrong_merchant: { en: "This merchant is not part of the reward's program", it: 'Questo esercente non fa parte del programma del premio' },
  redemption_voucher_used: {
    en: 'The voucher of this redemption has been used already: the redemption cannot be reversed',
    it: 'Il buono di questo riscatto è già stato usato: il riscatto non si può stornare',
  },
  // ---- The integration API (decision records 017, 030) ----
  card_code_required: {
    en: "The card's code is needed: scan the card's QR code or barcode (number-code)",
    it: 'Serve il codice della tessera: inquadra il QR o il codice a barre della tessera (numero-codice)',
  },
  merchant_inactive: {
    it: "L'esercente della chiave è sospeso o archiviato: la chiave non può operare",
    en: "The key's merchant is suspended or archived: the key cannot act",
  },
  invalid_api_key: { it: 'La chiave API non è valida o è stata revocata', en: 'The API key is not valid or has been revoked' },
  scope_missing: { it: 'La chiave API non ha il permesso per questa operazione', en: 'The API key may not do this' },
  other_merchant: { it: 'La chiave API opera solo per il proprio esercente', en: 'The API key acts only for its own merchant' },
  card_not_found: { it: 'Tessera non trovata', en: 'Card not found' },
  program_required: {
    it: "L'esercente partecipa a più programmi: indica programId",
    en: 'The merchant takes part in several programs: name programId',
  },
  merchant_not_active: {
    it: 'Esercente: scegli un esercente attivo (uno sospeso o archiviato non registra nuovi movimenti)',
    en: 'Merchant: choose an active merchant (a suspended or archived one records no new entries)',
  },
  circuit_merchant_not_active: {
    it: 'Esercenti del circuito: un esercente sospeso o archiviato non può entrare in un circuito',
    en: 'Merchants of the circuit: a suspended or archived merchant cannot join a circuit',
  },
  campaign_merchant_not_active: {
    it: 'Esercente: scegli un esercente attivo (uno sospeso o archiviato non può essere il pubblico di una campagna)',
    en: "Merchant: choose an active merchant (a suspended or archived one cannot be a campaign's audience)",
  },
  key_merchant_not_active: {
    it: 'Esercente: scegli un esercente attivo (uno sospeso o archiviato non può avere chiavi)',
    en: 'Merchant: choose an active merchant (a suspended or archived one cannot have keys)',
  },
  no_active_program: { it: "L'esercente non partecipa a nessun programma attivo", en: 'The merchant takes part in no active program' },
  // ---- A new customer's program (decision 035) ----
  enrolling_program_not_active: {
    it: 'Programma: scegli un programma attivo (solo un programma attivo accoglie nuovi clienti)',
    en: 'Program: choose an active program (only an active program takes new customers)',
  },
  welcome_needs_program: {
    it: 'Programma: scegli il programma a cui iscrivere i clienti, è quello che invia il benvenuto',
    en: 'Program: choose the program the customers join, it is the one that sends the welcome',
  },
} satisfies Record<string, Record<Language, Text>>;

export type ErrorTextKey = keyof typeof texts;

/** Every key of the catalogue: its codes and the finer keys. */
export function errorTextKeys(): ErrorTextKey[] {
  return Object.keys(texts) as ErrorTextKey[];
}

/** The text of an error key in a language, its parameters filled in. */
export function errorText(key: ErrorTextKey, language: Language, params: ErrorParams = {}): string {
  const text: Text = texts[key][language];
  return typeof text === 'function' ? text(params) : text;
}

/** Whether a string names a text of the catalogue (a code without a text of its own falls back). */
export function isErrorTextKey(key: string): key is ErrorTextKey {
  return Object.hasOwn(texts, key);
}

/**
 * A row error's text in the catalogue (above), its parameter the field the column was mapped
 * to; a balance the ledger refused reads as an invalid value of its field.
 */
export const IMPORT_ERROR_TEXTS = {
  required: 'import_required',
  invalid: 'import_invalid',
  notFound: 'import_not_found',
  duplicateInFile: 'import_duplicate_in_file',
  alreadyExists: 'import_already_exists',
  consentValue: 'import_consent_value',
  insufficientBalance: 'import_invalid',
} as const satisfies Record<ImportErrorCode, ErrorTextKey>;

/** The text of a stored row error in a language; an unknown code reads as an invalid value. */
export function importRowErrorText(code: string, field: string, language: Language): string {
  const key = Object.hasOwn(IMPORT_ERROR_TEXTS, code) ? IMPORT_ERROR_TEXTS[code as ImportErrorCode] : 'import_invalid';
  return errorText(key, language, { field });
}
