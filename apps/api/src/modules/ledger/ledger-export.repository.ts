import { sql } from 'drizzle-orm';
import type { Language } from '@sf/contract/app-info';
import { PROOF_NUMBER_PREFIX } from '@sf/contract/social-proofs';
import { VALUE_LABELS, type ValueLabels } from '@sf/contract/value-labels';
import { csvCell, type CsvColumns } from '../../db/csv-export.ts';
import { staffNameOf } from '../staff/staff-admin.service.ts';
import { SYSTEM_REASON_DETAIL, SYSTEM_REASON_KIND, whereOf, type LedgerFilters } from './ledger-lists.repository.ts';

/** "Bonus condivisione social (prova n. " per proof kind: the export closes it with the proof's id (socialBonusReason's words). */
const SOCIAL_BONUS_OPENINGS: ValueLabels = Object.fromEntries(
  Object.entries(VALUE_LABELS.socialBonus).map(([kind, words]) => [
    kind,
    { it: `${words.it} (${PROOF_NUMBER_PREFIX.it}`, en: `${words.en} (${PROOF_NUMBER_PREFIX.en}` },
  ]),
);

/**
 * The Movimenti export's SQL (moved out of ledger.routes.ts: routes hold no SQL). Names and card
 * numbers as a person reads them; the ids stay as the last columns (for joins).
 */
export function ledgerExportColumns(timeZone: string, language: Language): CsvColumns {
  const e = (column: string) => sql.raw(`e.${column}`);
  const customer = (column: string) => sql.raw(`(select ${column} from customers c where c.id = e.customer_id)`);
  const columns: CsvColumns = {
    id: { header: { it: 'ID', en: 'ID' }, value: csvCell.integer(e('id')) },
    createdAt: { header: { it: 'Data', en: 'Date' }, value: csvCell.dateTime(e('created_at'), timeZone) },
    kind: { header: { it: 'Tipo', en: 'Kind' }, value: csvCell.label(e('kind'), VALUE_LABELS.ledgerKind, language) },
    source: { header: { it: 'Origine', en: 'Source' }, value: csvCell.label(e('source'), VALUE_LABELS.ledgerSource, language) },
    // As Movimenti shows an erased customer: "Cliente cancellato" and no card (the one the erasure
    // issued was never theirs to show on a past movement), not a lone space and a new number.
    customer: {
      header: { it: 'Cliente', en: 'Customer' },
      value: csvCell.text(
        sql`(select ${csvCell.customerName(sql.raw('c.status'), csvCell.fullName(sql.raw('c.first_name'), sql.raw('c.last_name')), language)} from customers c where c.id = e.customer_id)`,
      ),
    },
    cardNumber: { header: { it: 'Numero tessera', en: 'Card number' }, value: csvCell.text(customer(`case when c.status <> 'erased' then c.card_number end`)) },
    program: { header: { it: 'Programma', en: 'Program' }, value: csvCell.text(sql.raw('(select p.name from programs p where p.id = e.program_id)')) },
    merchant: {
      header: { it: 'Esercente', en: 'Merchant' },
      value: csvCell.text(sql.raw('(select coalesce(m.sign_name, m.legal_name) from merchants m where m.id = e.merchant_id)')),
    },
    points: { header: { it: 'Punti', en: 'Points' }, value: csvCell.integer(e('points')) },
    stamps: { header: { it: 'Timbri', en: 'Stamps' }, value: csvCell.integer(e('stamps')) },
    amount: { header: { it: 'Importo (€)', en: 'Amount (€)' }, value: csvCell.cents(e('amount_cents')) },
    balanceAfter: { header: { it: 'Saldo dopo', en: 'Balance after' }, value: csvCell.integer(e('balance_after')) },
    // A social bonus is named by its proof in the reader's language, whatever its stored reason says
    // (entries written before the reason was worded kept `share #5`).
    // A reason the platform wrote itself (ledgerSystemReasonSchema) is said in the reader's language
    // too, as the screen says it; a reason a person typed stays as typed.
    reason: {
      header: { it: 'Motivo', en: 'Reason' },
      value: csvCell.text(
        sql`coalesce(case when e.source = 'social' then (select ${csvCell.label(sql.raw('sp.kind'), SOCIAL_BONUS_OPENINGS, language)} || sp.id || ')'
            from social_proofs sp where sp.entry_id = e.id) end,
          ${csvCell.label(SYSTEM_REASON_KIND, VALUE_LABELS.ledgerSystemReason, language)} || coalesce(' ' || ${SYSTEM_REASON_DETAIL}, ''),
          e.reason)`,
      ),
    },
    reversesId: { header: { it: 'Storno di', en: 'Reverses' }, value: csvCell.integer(e('reverses_id')) },
    expiresOn: { header: { it: 'Scadenza', en: 'Expires on' }, value: csvCell.date(e('expires_on')) },
    // As the screen names them: a staff member by name, the system in words, an API key by its label.
    createdBy: {
      header: { it: 'Operatore', en: 'Made by' },
      value: csvCell.text(sql`coalesce(${staffNameOf(e('created_by'))}, ${csvCell.label(e('created_by_label'), VALUE_LABELS.auditActor, language)})`),
    },
    customerId: { header: { it: 'ID cliente', en: 'Customer ID' }, value: csvCell.text(e('customer_id')) },
    programId: { header: { it: 'ID programma', en: 'Program ID' }, value: csvCell.text(e('program_id')) },
    merchantId: { header: { it: 'ID esercente', en: 'Merchant ID' }, value: csvCell.text(e('merchant_id')) },
  };
  return columns;
}

export function ledgerExportQuery(columns: CsvColumns, filters: LedgerFilters) {
  const selection = sql.join(
    Object.values(columns).map((column, index) => sql`${column.value} as ${sql.raw(`c${index}`)}`),
    sql`, `,
  );
  return sql`select ${selection} from ledger_entries e where ${whereOf(filters)} order by e.created_at desc, e.id desc`;
}
