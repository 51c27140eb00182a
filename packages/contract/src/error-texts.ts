import type { Language } from './app-info.ts';
import type { ErrorCode } from './errors.ts';

/**
 * Texts of the error codes a client can act on, per language. The API throws the code; its error
 * handler answers with the text in the caller's language (CONTRIBUTING.md convention 12: translated once, where answered).
 */
export const ERROR_TEXTS: Partial<Record<ErrorCode, Record<Language, string>>> = {
  version_conflict: {
    en: 'Someone else changed this record in the meantime: reload it and apply your changes again',
    it: 'Qualcun altro ha modificato questo dato nel frattempo: ricaricalo e applica di nuovo le modifiche',
  },
  has_ledger_entries: {
    en: 'This merchant has ledger entries and cannot be deleted: archive it instead',
    it: 'Questo esercente ha movimenti e non può essere eliminato: archivialo',
  },
  last_admin: {
    en: 'This is the last active administrator: appoint another administrator first',
    it: 'È l’ultimo amministratore attivo: nomina prima un altro amministratore',
  },
  own_account: {
    en: 'You cannot change your own role or status: ask another administrator',
    it: 'Non puoi cambiare il tuo ruolo o il tuo stato: chiedi a un altro amministratore',
  },
  account_exists: {
    en: 'An account with this e-mail already exists: change its role in the staff list instead',
    it: 'Esiste già un account con questa e-mail: cambiane il ruolo dall’elenco dello staff',
  },
  invalid_invitation_token: {
    en: 'This invitation link is not valid or has expired: ask an administrator for a new one',
    it: 'Questo link di invito non è valido o è scaduto: chiedi un nuovo invito a un amministratore',
  },
  processing_blocked: {
    en: 'This customer restricted or objected to marketing and profiling: lift the block from the privacy request first',
    it: 'Il cliente ha chiesto la limitazione o si è opposto a marketing e profilazione: revoca prima il blocco dalla richiesta privacy',
  },
  customer_erased: {
    en: "This customer's data were erased",
    it: 'I dati di questo cliente sono stati cancellati',
  },
  card_code_required: {
    en: "The card's code is needed: scan the card's QR code or barcode (number-code)",
    it: 'Serve il codice della tessera: inquadra il QR o il codice a barre della tessera (numero-codice)',
  },
  already_used: {
    en: 'This value is already in use',
    it: 'Questo valore è già in uso',
  },
  invalid_state: {
    en: 'This action is not possible in the current state',
    it: 'Questa azione non è possibile nello stato attuale',
  },
};

export function errorText(code: ErrorCode, language: Language): string | undefined {
  return ERROR_TEXTS[code]?.[language];
}

