import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { AppError } from '../../lib/errors.ts';
import { addDays, localDate } from '../../lib/business-days.ts';
import { createEntry, expireDueLots, reverseEntry, type LedgerCaller, type LedgerDeps } from './ledger.service.ts';
import { verifyLedger } from './ledger.verify.ts';

/**
 * Model-based property test (fast-check commands): random sequences of earn, redeem, adjust,
 * reversal, expiry and duplicate sends against the real service and database, compared after every
 * step with a few lines of obvious bookkeeping: balance, FIFO lots (remaining and expiry day, oldest
 * first), and which requests are refused with which code.
 */
type ModelLot = { remaining: number; expiresOn: string | null };
type ModelEntry = { id: number; kind: string; points: number; lot?: ModelLot; takes: { lot: ModelLot; points: number }[]; isReversed: boolean };
type Model = { balance: number; lots: ModelLot[]; entries: ModelEntry[]; last?: { body: object; key: string; answer: unknown } };
type Real = { deps: LedgerDeps; customerId: string; programId: string; clock: { now: Date } };

const EXPIRY_DAYS = 10;
const caller: LedgerCaller = { id: null, label: 'model-test', audit: { id: null, email: 'model-test' } };

function takeFifo(model: Model, amount: number, prefer?: ModelLot) {
  const takes: { lot: ModelLot; points: number }[] = [];
  let left = amount;
  const order = prefer ? [prefer, ...model.lots.filter((lot) => lot !== prefer)] : model.lots;
  for (const lot of order) {
    if (left === 0) break;
    const take = Math.min(lot.remaining, left);
    if (take > 0) {
      lot.remaining -= take;
      takes.push({ lot, points: take });
      left -= take;
    }
  }
  return takes;
}

async function refusal(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

async function check(model: Model, real: Real) {
  const membership = (await real.deps.db.execute(
    sql`select id, balance from memberships where customer_id = ${real.customerId} and program_id = ${real.programId}`,
  )) as unknown as { rows: { id: string; balance: number }[] };
  expect(membership.rows[0]?.balance ?? 0).toBe(model.balance);
  if (!membership.rows[0]) return;
  const lots = (await real.deps.db.execute(
    sql`select remaining, expires_on::text as expires_on from ledger_lots where membership_id = ${membership.rows[0].id} and remaining > 0 order by id`,
  )) as unknown as { rows: { remaining: number; expires_on: string | null }[] };
  expect(lots.rows.map((lot) => [lot.remaining, lot.expires_on])).toEqual(
    model.lots.filter((lot) => lot.remaining > 0).map((lot) => [lot.remaining, lot.expiresOn]),
  );
}

class Earn implements fc.AsyncCommand<Model, Real> {
  constructor(readonly amountCents: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const body = { customerId: real.customerId, programId: real.programId, kind: 'purchase' as const, amountCents: this.amountCents };
    const key = randomUUID();
    const answer = await createEntry(real.deps, caller, body, key);
    const points = Math.floor(this.amountCents / 100);
    const entry = (answer.body as { entry: { id: number; points: number } }).entry;
    expect(entry.points).toBe(points);
    const lot = points > 0 ? { remaining: points, expiresOn: addDays(localDate(real.clock.now), EXPIRY_DAYS) } : undefined;
    if (lot) model.lots.push(lot);
    model.balance += points;
    model.entries.push({ id: entry.id, kind: 'earn', points, ...(lot ? { lot } : {}), takes: [], isReversed: false });
    model.last = { body, key, answer: answer.body };
    await check(model, real);
  }
  toString = () => `earn(${this.amountCents})`;
}

class Spend implements fc.AsyncCommand<Model, Real> {
  constructor(readonly kind: 'redeem' | 'adjust', readonly points: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const delta = this.kind === 'redeem' ? -this.points : this.points;
    const body =
      this.kind === 'redeem'
        ? { customerId: real.customerId, programId: real.programId, kind: 'redeem' as const, points: this.points }
        : { customerId: real.customerId, programId: real.programId, kind: 'adjust' as const, points: this.points, reason: 'model' };
    const key = randomUUID();
    let answer: unknown;
    const code = await refusal(createEntry(real.deps, caller, body, key).then((a) => (answer = a.body)));
    if (model.balance + delta < 0) {
      expect(code).toBe('insufficient_balance');
    } else {
      expect(code).toBeNull();
      const id = (answer as { entry: { id: number } }).entry.id;
      model.balance += delta;
      if (delta > 0) {
        const lot = { remaining: delta, expiresOn: addDays(localDate(real.clock.now), EXPIRY_DAYS) };
        model.lots.push(lot);
        model.entries.push({ id, kind: this.kind, points: delta, lot, takes: [], isReversed: false });
      } else {
        model.entries.push({ id, kind: this.kind, points: delta, takes: takeFifo(model, -delta), isReversed: false });
      }
      model.last = { body, key, answer };
    }
    await check(model, real);
  }
  toString = () => `${this.kind}(${this.points})`;
}

class Reverse implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.entries.length > 0;
  async run(model: Model, real: Real) {
    const target = model.entries[this.pick % model.entries.length]!;
    let answer: unknown;
    const code = await refusal(reverseEntry(real.deps, caller, target.id, 'model', randomUUID()).then((a) => (answer = a.body)));
    if (target.kind === 'expire' || target.kind === 'reversal') {
      expect(code).toBe('conflict');
    } else if (target.isReversed) {
      expect(code).toBe('already_reversed');
    } else if (model.balance - target.points < 0) {
      expect(code).toBe('insufficient_balance');
    } else {
      expect(code).toBeNull();
      target.isReversed = true;
      const id = (answer as { entry: { id: number } }).entry.id;
      model.balance -= target.points;
      if (target.points > 0) {
        model.entries.push({ id, kind: 'reversal', points: -target.points, takes: takeFifo(model, target.points, target.lot), isReversed: false });
      } else if (target.points < 0) {
        for (const take of target.takes) model.lots.push({ remaining: take.points, expiresOn: take.lot.expiresOn });
        model.entries.push({ id, kind: 'reversal', points: -target.points, takes: [], isReversed: false });
      } else {
        model.entries.push({ id, kind: 'reversal', points: 0, takes: [], isReversed: false });
      }
    }
    await check(model, real);
  }
  toString = () => `reverse(#${this.pick})`;
}

class Expire implements fc.AsyncCommand<Model, Real> {
  constructor(readonly days: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.clock.now = new Date(real.clock.now.getTime() + this.days * 86_400_000);
    await expireDueLots(real.deps);
    const today = localDate(real.clock.now);
    // Oldest first, one entry per lot.
    for (const lot of model.lots) {
      if (lot.remaining > 0 && lot.expiresOn !== null && lot.expiresOn < today) {
        model.balance -= lot.remaining;
        model.entries.push({ id: -1, kind: 'expire', points: -lot.remaining, takes: [{ lot, points: lot.remaining }], isReversed: false });
        lot.remaining = 0;
      }
    }
    // Learn the ids of the expire entries just written (the model needs them to try reversing them).
    const written = (await real.deps.db.execute(
      sql`select id from ledger_entries where customer_id = ${real.customerId} and kind = 'expire' order by id`,
    )) as unknown as { rows: { id: number }[] };
    const expiries = model.entries.filter((entry) => entry.kind === 'expire');
    expect(written.rows.length).toBe(expiries.length);
    expiries.forEach((entry, index) => (entry.id = Number(written.rows[index]!.id)));
    await check(model, real);
  }
  toString = () => `expire(+${this.days}d)`;
}

class Duplicate implements fc.AsyncCommand<Model, Real> {
  constructor(readonly changeBody: boolean) {}
  check = (model: Readonly<Model>) => model.last !== undefined;
  async run(model: Model, real: Real) {
    const last = model.last!;
    if (this.changeBody) {
      const code = await refusal(createEntry(real.deps, caller, { ...last.body, reason: 'another body' } as never, last.key));
      expect(code).toBe('idempotency_key_reused');
    } else {
      const again = await createEntry(real.deps, caller, last.body as never, last.key);
      expect(again.isReplay).toBe(true);
      expect(JSON.parse(JSON.stringify(again.body))).toEqual(JSON.parse(JSON.stringify(last.answer)));
    }
    await check(model, real);
  }
  toString = () => (this.changeBody ? 'duplicate(other body)' : 'duplicate(same body)');
}

describe('the ledger against a model', () => {
  let ctx: TestContext;
  let fx: LedgerFixture;
  const clock = { now: new Date('2026-03-01T09:00:00Z') };

  beforeAll(async () => {
    ctx = await createTestContext({ seed: false });
    fx = await createLedgerFixture(ctx.app.db, { customers: 0, expiry: { policy: 'afterDays', days: EXPIRY_DAYS } });
  });
  afterAll(async () => ctx?.close());

  // 20 random runs of up to 30 operations, each verified: ~7 s alone, and 36 s — over the 30-s default —
  // on a machine at load 9 with the rest of the suite (a timeout, not a failure of the ledger).
  it('keeps balances, FIFO expiry and refusals as the model says, and stays verifiable', { timeout: 120_000 }, async () => {
    const commands = [
      fc.integer({ min: 0, max: 5000 }).map((cents) => new Earn(cents)),
      fc.integer({ min: 1, max: 60 }).map((points) => new Spend('redeem', points)),
      fc.integer({ min: -40, max: 40 }).filter((p) => p !== 0).map((points) => new Spend('adjust', points)),
      fc.nat(50).map((pick) => new Reverse(pick)),
      fc.integer({ min: 1, max: 8 }).map((days) => new Expire(days)),
      fc.boolean().map((changeBody) => new Duplicate(changeBody)),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: '+1' }), async (cmds) => {
        const customerId = randomUUID();
        await ctx.app.db.execute(
          sql`insert into customers (id, first_name, last_name, card_number, referral_code)
              values (${customerId}, 'Modello', 'Test', ${String(Math.floor(Math.random() * 1e13)).padStart(13, '0')}, ${randomUUID().slice(0, 10)})`,
        );
        const real: Real = {
          deps: { db: ctx.app.db, clock: { now: () => clock.now }, timeZone: 'Europe/Rome' },
          customerId,
          programId: fx.pointsProgramId,
          clock,
        };
        await fc.asyncModelRun(() => ({ model: { balance: 0, lots: [], entries: [] } as Model, real }), cmds);
        // After each random mix, every stored figure (balances, lots, day sums, rollups, tiers…) equals its sources.
        expect(await verifyLedger(ctx.app.db)).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });
});
