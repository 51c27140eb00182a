import { randomInt, randomUUID } from 'node:crypto';
import { isValidPartitaIva } from '@sf/contract/italian';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';

/**
 * Minimal merchants, customers and programs for the ledger's tests, written straight to the tables
 * (the ledger tests are about the ledger, not about creating anagrafiche).
 */
export type LedgerFixture = {
  merchantId: string;
  pointsProgramId: string;
  stampsProgramId: string;
  customerIds: string[];
};

let cardSeq = 0;

/**
 * A valid Partita IVA no other merchant of the test database has (one belongs to one merchant,
 * migration 0022): ten random digits and the check digit that fits.
 */
export function uniquePartitaIva(): string {
  for (;;) {
    const body = `0${String(randomInt(100_000_000, 1_000_000_000))}`;
    for (let digit = 0; digit <= 9; digit += 1) {
      if (isValidPartitaIva(`${body}${digit}`)) return `${body}${digit}`;
    }
  }
}

export async function createLedgerFixture(
  db: Database,
  options: {
    customers?: number;
    expiry?: { policy: 'never' | 'afterDays' | 'endOfYear'; days?: number };
    tiers?: { name: string; minPoints: number; multiplier: number }[];
    pointsPerEuro?: string;
    minSpendCents?: number | null;
  } = {},
): Promise<LedgerFixture> {
  const merchantId = randomUUID();
  const pointsProgramId = randomUUID();
  const stampsProgramId = randomUUID();
  await db.execute(
    sql`insert into merchants (id, legal_name, sign_name, vat_number, category, street, city, province, postal_code)
        values (${merchantId}, 'Bar Centrale S.r.l.', 'Bar Centrale', ${uniquePartitaIva()}, 'bar', 'Via Roma 1', 'Bologna', 'BO', '40121')`,
  );
  const expiry = options.expiry ?? { policy: 'never' };
  await db.execute(
    sql`insert into programs (id, name, type, status, points_per_euro, min_spend_cents, tiers, tier_window, expiry_policy, expiry_days, bonuses)
        values (${pointsProgramId}, 'Circuito Punti', 'points', 'active', ${options.pointsPerEuro ?? '1.00'}, ${options.minSpendCents ?? null},
          ${JSON.stringify(options.tiers ?? [])}::jsonb, 'rolling12', ${expiry.policy}, ${expiry.days ?? null}, '{}'::jsonb)`,
  );
  await db.execute(
    sql`insert into programs (id, name, type, status, stamps_required, max_stamps_per_day, max_stamps_per_transaction, bonuses)
        values (${stampsProgramId}, 'Tessera Caffè', 'stamps', 'active', 10, 3, 2, '{}'::jsonb)`,
  );
  await db.execute(
    sql`insert into program_merchants (program_id, merchant_id) values (${pointsProgramId}, ${merchantId}), (${stampsProgramId}, ${merchantId})`,
  );
  const customerIds: string[] = [];
  for (let i = 0; i < (options.customers ?? 2); i += 1) {
    const id = randomUUID();
    cardSeq += 1;
    const card = String(Math.floor(Math.random() * 1e7)).padStart(7, '0') + String(cardSeq % 1e6).padStart(6, '0');
    await db.execute(
      sql`insert into customers (id, first_name, last_name, card_number, referral_code)
          values (${id}, 'Mario', ${`Rossi ${i}`}, ${card}, ${`R${randomUUID().slice(0, 8).toUpperCase()}`})`,
    );
    customerIds.push(id);
  }
  return { merchantId, pointsProgramId, stampsProgramId, customerIds };
}
