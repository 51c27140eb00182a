import type { Language } from './app-info.ts';
import { SYSTEM_ACTOR_EMAIL } from './audit.ts';

/**
 * The words for stored values (statuses, kinds, categories…) in each language, for what the server
 * writes for people: CSV exports ("Attivo", "Accredito", "Fioraio" rather than `active`, `earn`,
 * `florist`) and texts such as the audit summaries. The web app's screens say the same words from their
 * own catalogues (`apps/web/src/locales`).
 */
export type ValueLabels = Record<string, Record<Language, string>>;

const labels = <T extends ValueLabels>(value: T) => value;

export const VALUE_LABELS = {
  merchantStatus: labels({
    active: { it: 'Attivo', en: 'Active' },
    suspended: { it: 'Sospeso', en: 'Suspended' },
    archived: { it: 'Archiviato', en: 'Archived' },
  }),
  merchantCategory: labels({
    bar: { it: 'Bar', en: 'Bar' },
    restaurant: { it: 'Ristorante', en: 'Restaurant' },
    pizzeria: { it: 'Pizzeria', en: 'Pizzeria' },
    bakery: { it: 'Panificio', en: 'Bakery' },
    grocery: { it: 'Alimentari', en: 'Grocery' },
    hairdresser: { it: 'Parrucchiere', en: 'Hairdresser' },
    beauty: { it: 'Estetica', en: 'Beauty' },
    clothing: { it: 'Abbigliamento', en: 'Clothing' },
    shoes: { it: 'Calzature', en: 'Shoes' },
    bookshop: { it: 'Libreria', en: 'Bookshop' },
    pharmacy: { it: 'Farmacia', en: 'Pharmacy' },
    gym: { it: 'Palestra', en: 'Gym' },
    florist: { it: 'Fioraio', en: 'Florist' },
    optician: { it: 'Ottico', en: 'Optician' },
    other: { it: 'Altro', en: 'Other' },
  }),
  /** A customer's language (what we write to them in). */
  language: labels({
    it: { it: 'Italiano', en: 'Italian' },
    en: { it: 'Inglese', en: 'English' },
  }),
  customerStatus: labels({
    active: { it: 'Attivo', en: 'Active' },
    blocked: { it: 'Bloccato', en: 'Blocked' },
    erased: { it: 'Cancellato', en: 'Erased' },
  }),
  programType: labels({
    points: { it: 'Punti', en: 'Points' },
    stamps: { it: 'Timbri', en: 'Stamps' },
  }),
  programStatus: labels({
    draft: { it: 'Bozza', en: 'Draft' },
    active: { it: 'Attivo', en: 'Active' },
    closed: { it: 'Chiuso', en: 'Closed' },
  }),
  expiryPolicy: labels({
    never: { it: 'Mai', en: 'Never' },
    afterDays: { it: "Dopo N giorni dall'accredito", en: 'N days after earning' },
    endOfYear: { it: "Fine dell'anno successivo all'accredito", en: 'End of the year after earning' },
  }),
  rewardStatus: labels({
    draft: { it: 'Bozza', en: 'Draft' },
    active: { it: 'Attivo', en: 'Active' },
    archived: { it: 'Archiviato', en: 'Archived' },
  }),
  voucherStatus: labels({
    available: { it: 'Disponibile', en: 'Available' },
    issued: { it: 'Assegnato', en: 'Issued' },
    used: { it: 'Usato', en: 'Used' },
    expired: { it: 'Scaduto', en: 'Expired' },
    void: { it: 'Annullato', en: 'Void' },
  }),
  voucherOrigin: labels({
    generated: { it: 'Generato', en: 'Generated' },
    imported: { it: 'Importato', en: 'Imported' },
    redemption: { it: 'Al riscatto', en: 'On redemption' },
  }),
  ledgerKind: labels({
    earn: { it: 'Accredito', en: 'Earn' },
    redeem: { it: 'Riscatto', en: 'Redemption' },
    adjust: { it: 'Rettifica', en: 'Adjustment' },
    expire: { it: 'Scadenza', en: 'Expiry' },
    reversal: { it: 'Storno', en: 'Reversal' },
  }),
  ledgerSource: labels({
    purchase: { it: 'Acquisto', en: 'Purchase' },
    social: { it: 'Social', en: 'Social' },
    referral: { it: 'Invito', en: 'Referral' },
    birthday: { it: 'Compleanno', en: 'Birthday' },
    bonus: { it: 'Bonus', en: 'Bonus' },
    manual: { it: 'Manuale', en: 'Manual' },
    reward: { it: 'Premio', en: 'Reward' },
    system: { it: 'Sistema', en: 'System' },
  }),
  proofKind: labels({
    share: { it: 'Condivisione', en: 'Share' },
    review: { it: 'Recensione', en: 'Review' },
    checkIn: { it: 'Check-in', en: 'Check-in' },
  }),
  /** The bonus an approved proof pays, as Movimenti and its export name the entry (`socialBonusReason`). */
  socialBonus: labels({
    share: { it: 'Bonus condivisione social', en: 'Social share bonus' },
    review: { it: 'Bonus recensione', en: 'Review bonus' },
    checkIn: { it: 'Bonus check-in', en: 'Check-in bonus' },
  }),
  /** A reason the platform wrote itself (`ledgerSystemReasonSchema`), as the export says it; a year or a receipt number follows. */
  ledgerSystemReason: labels({
    referralReferee: { it: 'Bonus presentazione (invitato)', en: 'Referral bonus (invited)' },
    referralReferrer: { it: 'Bonus presentazione (presentatore)', en: 'Referral bonus (referrer)' },
    birthday: { it: 'Bonus compleanno', en: 'Birthday bonus' },
    receipt: { it: 'Scontrino', en: 'Receipt' },
    openingBalance: { it: 'Saldo iniziale', en: 'Opening balance' },
  }),
  proofStatus: labels({
    pending: { it: 'In attesa', en: 'Pending' },
    approved: { it: 'Approvata', en: 'Approved' },
    rejected: { it: 'Rifiutata', en: 'Rejected' },
  }),
  privacyKind: labels({
    access: { it: 'Accesso', en: 'Access' },
    portability: { it: 'Portabilità', en: 'Portability' },
    rectification: { it: 'Rettifica', en: 'Rectification' },
    erasure: { it: 'Cancellazione', en: 'Erasure' },
    restriction: { it: 'Limitazione', en: 'Restriction' },
    objection: { it: 'Opposizione', en: 'Objection' },
  }),
  privacyStatus: labels({
    open: { it: 'Aperta', en: 'Open' },
    in_progress: { it: 'In lavorazione', en: 'In progress' },
    done: { it: 'Evasa', en: 'Done' },
    rejected: { it: 'Respinta', en: 'Rejected' },
  }),
  staffRole: labels({
    admin: { it: 'Amministratore', en: 'Administrator' },
    editor: { it: 'Redattore', en: 'Editor' },
    member: { it: 'Membro (non accede)', en: 'Member (cannot sign in)' },
  }),
  staffStatus: labels({
    active: { it: 'Attivo', en: 'Active' },
    disabled: { it: 'Disattivato', en: 'Disabled' },
  }),
  apiKeyKind: labels({
    merchant: { it: 'Cassa di un esercente', en: "A merchant's till" },
    app: { it: 'App dei clienti', en: 'The customers’ app' },
  }),
  apiKeyScope: labels({
    'purchases:write': { it: 'Registrare acquisti', en: 'Record purchases' },
    'cards:read': { it: 'Leggere le tessere', en: 'Read cards' },
    'proofs:write': { it: 'Inviare prove social', en: 'Submit social proofs' },
    'vouchers:use': { it: 'Verificare e usare buoni', en: 'Check and use vouchers' },
    'rewards:redeem': { it: 'Riscattare premi', en: 'Redeem rewards' },
    'customers:write': { it: 'Iscrivere clienti (app)', en: 'Sign customers up (app)' },
  }),
  newsStatus: labels({
    draft: { it: 'Bozza', en: 'Draft' },
    scheduled: { it: 'Programmato', en: 'Scheduled' },
    published: { it: 'Pubblicato', en: 'Published' },
    archived: { it: 'Archiviato', en: 'Archived' },
  }),
  campaignStatus: labels({
    draft: { it: 'Bozza', en: 'Draft' },
    scheduled: { it: 'Programmata', en: 'Scheduled' },
    sending: { it: 'In invio', en: 'Sending' },
    sent: { it: 'Inviata', en: 'Sent' },
    cancelled: { it: 'Annullata', en: 'Cancelled' },
  }),
  /** The audit's actor for what the platform did by itself (`SYSTEM_ACTOR_EMAIL`); an account's e-mail stays as it is. */
  auditActor: labels({
    [SYSTEM_ACTOR_EMAIL]: { it: 'Sistema', en: 'System' },
  }),
} as const;

/**
 * An erased customer's name as every list and export says it (their name is blanked by the erasure,
 * decision 021): never an empty cell. The screens say the same from their own catalogues.
 */
export const ERASED_CUSTOMER_NAME: Record<Language, string> = { it: 'Cliente cancellato', en: 'Erased customer' };

/** The word for a stored value, or the value itself when it has none (a value added later). */
export function valueLabel(labelsOf: ValueLabels, value: string, language: Language): string {
  return Object.hasOwn(labelsOf, value) ? labelsOf[value]![language] : value;
}
