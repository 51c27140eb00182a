import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { CARD_PREFIX, luhnCheckDigit } from '@sf/contract/customers';
import { barcodeMessageOf, CARD_CODE_ALPHABET, CARD_CODE_LENGTH, type CustomerCard } from '@sf/contract/customer-cards';
import type { Executor } from '../../db/client.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { bumpCardCodeVersion, findCardHolderRow, findCustomer, isCardNumberTaken } from './customers.repository.ts';

/**
 * The card's presence code and card numbers (decision record 030). The code is derived, never stored:
 * HMAC-SHA-256(CARD_CODE_SECRET, "<customer id>:<card_code_version>") written in the vouchers' alphabet.
 * Every other module reads and checks codes through the functions below.
 */
export type CardCodeDeps = ServiceDeps & { cardCodeSecret: string };

/** Who holds a card: the id for the ledger, the initials' letters, the status. Nothing else leaves. */
export type CardHolder = { id: string; firstName: string; lastName: string; status: string };

const CODE_BASE = BigInt(CARD_CODE_ALPHABET.length);

/**
 * The code of a card version: the HMAC read as a 256-bit number, its last ten base-31 digits. 31^10
 * (about 2^49.5) is so much smaller than 2^256 that every code is equally likely to 1 part in 2^200.
 */
export function cardCodeFor(secret: string, customerId: string, version: number): string {
  let value = BigInt(`0x${createHmac('sha256', secret).update(`${customerId}:${version}`).digest('hex')}`);
  let code = '';
  for (let index = 0; index < CARD_CODE_LENGTH; index += 1) {
    code += CARD_CODE_ALPHABET[Number(value % CODE_BASE)];
    value /= CODE_BASE;
  }
  return code;
}

/** A new card number: our prefix, 9 digits drawn with crypto.randomInt, the Luhn check digit. */
export function drawCardNumber(): string {
  const body = `${CARD_PREFIX}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** A card number no customer has (a draw that collides is drawn again: 10^9 numbers). */
export async function uniqueCardNumber(executor: Executor): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    if (attempt >= 20) throw new Error('card number draws kept colliding');
    const cardNumber = drawCardNumber();
    if (!(await isCardNumberTaken(executor, cardNumber))) return cardNumber;
  }
}

const customerNotFound = () => notFound('customer');
const customerErased = () => new AppError(409, 'customer_erased');

function cardOf(secret: string, row: { id: string; cardNumber: string; cardCodeVersion: number }): CustomerCard {
  const cardCode = cardCodeFor(secret, row.id, row.cardCodeVersion);
  return { cardNumber: row.cardNumber, cardCode, barcodeMessage: barcodeMessageOf(row.cardNumber, cardCode), cardCodeVersion: row.cardCodeVersion };
}

/** What the card view, the printed card (and later the wallet pass) encode: number, code, `<number>-<code>`. */
export async function customerCard(deps: CardCodeDeps, customerId: string): Promise<CustomerCard> {
  const row = await findCustomer(deps.db, customerId);
  if (!row) throw customerNotFound();
  return cardOf(deps.cardCodeSecret, row);
}

/**
 * A lost or copied card: the code's version goes up by one, so the old code stops working at once
 * (the number stays). Audited with the versions, never the codes.
 */
export async function regenerateCardCode(deps: CardCodeDeps, caller: Caller, customerId: string): Promise<CustomerCard> {
  return deps.db.transaction(async (tx) => {
    const current = await findCustomer(tx, customerId, { forUpdate: true });
    if (!current) throw customerNotFound();
    if (current.status === 'erased') throw customerErased();
    const row = await bumpCardCodeVersion(tx, customerId, deps.clock.now());
    await recordAudit(tx, caller.actor, {
      action: 'card_code.regenerate',
      entityType: 'customer',
      entityId: customerId,
      before: { cardCodeVersion: current.cardCodeVersion },
      after: { cardCodeVersion: row.cardCodeVersion },
    });
    return cardOf(deps.cardCodeSecret, row);
  });
}

/** The holder of a card number, without any proof that the card is present (merchant reads, purchases). */
export async function findCardHolder(deps: Pick<CardCodeDeps, 'db'>, cardNumber: string): Promise<CardHolder | null> {
  const row = await findCardHolderRow(deps.db, cardNumber);
  return row ? { id: row.id, firstName: row.firstName, lastName: row.lastName, status: row.status } : null;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compared whatever the card: an unknown card costs the same HMAC and comparison as a known one. */
const UNKNOWN_CARD_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The holder of a card whose code matches, else null — for an unknown card and for a wrong code
 * alike, so an answer built on it cannot tell them apart. The code is compared in constant time
 * (upper-cased; the alphabet has no look-alikes to fold).
 */
export async function verifyCardCode(deps: Pick<CardCodeDeps, 'db' | 'cardCodeSecret'>, cardNumber: string, cardCode: string): Promise<CardHolder | null> {
  const row = await findCardHolderRow(deps.db, cardNumber);
  const expected = cardCodeFor(deps.cardCodeSecret, row?.id ?? UNKNOWN_CARD_ID, row?.cardCodeVersion ?? 1);
  // Digests of both sides: equal lengths whatever was sent, compared without an early exit.
  const isMatch = timingSafeEqual(digest(expected), digest(cardCode.toUpperCase()));
  return row && isMatch ? { id: row.id, firstName: row.firstName, lastName: row.lastName, status: row.status } : null;
}
