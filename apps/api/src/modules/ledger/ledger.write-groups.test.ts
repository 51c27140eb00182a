import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateLedgerEntry } from '@sf/contract/ledger';
import type { DatabaseHandle } from '../../db/client.ts';
import { systemClock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { freshDatabase, testDatabaseKind } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { requestHash } from '../../lib/idempotency.ts';
import { createEntriesTogether, createEntry, writeGroupsOf, type LedgerCaller, type LedgerDeps } from './ledger.service.ts';
import { verifyLedger } from './ledger.verify.ts';

/**
 * Ledger writes sharing one transaction (decision 027). Real PostgreSQL only: on PGlite every write
 * runs alone (one connection in process), which the other ledger tests cover on both databases.
 */
describe.skipIf(testDatabaseKind === 'pglite')('ledger writes in groups (real PostgreSQL)', () => {
  let handle: DatabaseHandle;
  let drop = async () => undefined as void;
  let fx: LedgerFixture;
  let deps: LedgerDeps;
  const caller: LedgerCaller = { id: null, label: 'group-test', audit: { id: null, email: 'group-test' } };
  const entryRequest = (input: CreateLedgerEntry, key: string = randomUUID()) => ({
    caller,
    input,
    idempotencyKey: key,
    request: { scope: 'admin-ledger', key, hash: requestHash({ op: 'create', input }) },
  });
  const purchase = (customerId: string, amountCents = 1000): CreateLedgerEntry => ({
    customerId,
    programId: fx.pointsProgramId,
    kind: 'purchase',
    amountCents,
  });
  const rows = async <T,>(query: ReturnType<typeof sql>) => ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    const fresh = await freshDatabase({ poolSize: 8 });
    handle = fresh.handle;
    drop = async () => {
      await handle.close();
      await fresh.drop();
    };
    fx = await createLedgerFixture(handle.db, { customers: 12 });
    deps = { db: handle.db, clock: systemClock, timeZone: 'Europe/Rome' };
    // Every member exists (a first earning takes the long way, alone): one purchase each.
    for (const customerId of fx.customerIds) await createEntry(deps, caller, purchase(customerId), randomUUID());
  });
  afterAll(async () => drop());

  it('writes several members in one transaction, each answered as if alone, and replays them', async () => {
    const members = fx.customerIds.slice(0, 4);
    const requests = members.map((customerId) => entryRequest(purchase(customerId, 2500)));
    const outcomes = await createEntriesTogether(deps, requests);
    const ids: number[] = [];
    outcomes.forEach((outcome, index) => {
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      const body = outcome.value.body as { entry: { id: number; customerId: string; points: number }; membership: { balance: number } };
      expect(outcome.value).toMatchObject({ status: 201, isReplay: false });
      expect(body.entry.customerId).toBe(members[index]);
      expect(body.entry.points).toBe(25);
      expect(body.membership.balance).toBe(10 + 25);
      ids.push(body.entry.id);
    });
    // One transaction: every entry carries the same creating transaction id.
    const transactions = await rows<{ n: number }>(
      sql`select count(distinct xmin::text)::int as n from ledger_entries where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
    );
    expect(transactions[0]!.n).toBe(1);
    // The same keys again, grouped differently: the stored answers, nothing written twice.
    const again = await createEntriesTogether(deps, [requests[2]!, requests[0]!]);
    expect(again.map((outcome) => outcome.ok && (outcome.value.body as { entry: { id: number } }).entry.id)).toEqual([ids[2], ids[0]]);
    expect(again.every((outcome) => outcome.ok && outcome.value.isReplay)).toBe(true);
    expect(await verifyLedger(handle.db)).toEqual([]);
  });

  it("keeps each request's refusal its own, and runs a first earning alone after the group", async () => {
    const [rich, poor, another] = fx.customerIds.slice(4, 7) as [string, string, string];
    const stranger = randomUUID();
    const newcomer = await createLedgerFixture(handle.db, { customers: 1 });
    const outcomes = await createEntriesTogether(deps, [
      entryRequest(purchase(rich, 1000)),
      entryRequest({ customerId: poor, programId: fx.pointsProgramId, kind: 'redeem', points: 500 }),
      entryRequest({ customerId: stranger, programId: fx.pointsProgramId, kind: 'purchase', amountCents: 100 }),
      // A member of another program, with no membership yet: the long way.
      entryRequest({ customerId: newcomer.customerIds[0]!, programId: newcomer.pointsProgramId, kind: 'purchase', amountCents: 700 }),
      entryRequest({ customerId: another, programId: fx.pointsProgramId, kind: 'redeem', points: 4 }),
    ]);
    expect(outcomes[0]!.ok).toBe(true);
    expect(outcomes[1]!.ok).toBe(false);
    expect(!outcomes[1]!.ok && (outcomes[1]!.error as AppError).code).toBe('insufficient_balance');
    expect(!outcomes[2]!.ok && (outcomes[2]!.error as AppError).statusCode).toBe(400);
    expect(outcomes[3]!.ok && (outcomes[3]!.value.body as { entry: { points: number } }).entry.points).toBe(7);
    expect(outcomes[4]!.ok && (outcomes[4]!.value.body as { membership: { balance: number } }).membership.balance).toBe(10 - 4);
    const balances = await rows<{ customer_id: string; balance: number }>(
      sql`select customer_id, balance from memberships where customer_id in (${rich}, ${poor}, ${another})`,
    );
    expect(Object.fromEntries(balances.map((row) => [row.customer_id, row.balance]))).toEqual({ [rich]: 20, [poor]: 10, [another]: 6 });
    expect(await verifyLedger(handle.db)).toEqual([]);
  });

  it('runs every request alone when the group fails, so one bad write takes no other with it', async () => {
    const [victim, bystander] = fx.customerIds.slice(7, 9) as [string, string];
    // An entry already holds this key for its source while no answer is stored under it: the group's
    // write of it fails on the unique (source, key), which aborts the whole group's transaction.
    const key = `collide-${randomUUID()}`;
    await createEntry(deps, caller, purchase(victim, 100), key);
    await handle.db.execute(sql`delete from idempotency_records where key = ${key}`);
    const before = await rows<{ n: number }>(sql`select count(*)::int as n from ledger_entries`);
    const outcomes = await createEntriesTogether(deps, [entryRequest(purchase(victim, 300), key), entryRequest(purchase(bystander, 400))]);
    expect(outcomes[0]!.ok).toBe(false);
    expect(outcomes[1]!.ok && outcomes[1]!.value.status).toBe(201);
    const after = await rows<{ n: number }>(sql`select count(*)::int as n from ledger_entries`);
    expect(after[0]!.n).toBe(before[0]!.n + 1);
    expect(await verifyLedger(handle.db)).toEqual([]);
  });

  it('gathers concurrent requests into groups, never one member or one key twice in a group', async () => {
    const groups = writeGroupsOf(deps)!;
    const before = { ...groups.stats };
    const members = fx.customerIds.slice(9, 12);
    const key = randomUUID();
    const twin = purchase(members[0]!, 5000);
    const sends = [
      ...Array.from({ length: 30 }, (_, index) => createEntry(deps, caller, purchase(members[index % members.length]!, 100), randomUUID())),
      createEntry(deps, caller, twin, key),
      createEntry(deps, caller, twin, key),
    ];
    const answers = await Promise.all(sends.map((send) => send.catch((error: unknown) => error)));
    expect(answers.slice(0, 30).every((answer) => !(answer instanceof Error) && (answer as { status: number }).status === 201)).toBe(true);
    // The twins never share a group: one writes; the other replays its answer, or, when its own group
    // ran while the first one's was still in flight, is told so (409) as a lone twin would be.
    const [first, second] = answers.slice(-2) as ({ body: { entry: { id: number } }; isReplay: boolean } | AppError)[];
    const written = [first, second].filter((answer) => !(answer instanceof AppError) && !answer!.isReplay);
    expect(written).toHaveLength(1);
    const other = written[0] === first ? second : first;
    if (other instanceof AppError) expect(other.code).toBe('idempotency_key_in_flight');
    else expect(other!.body.entry.id).toBe((written[0] as { body: { entry: { id: number } } }).body.entry.id);
    const grouped = groups.stats.requests - before.requests;
    expect(grouped).toBe(32);
    // Fewer transactions than requests, though three members cannot share more than three to a group.
    expect(groups.stats.groups - before.groups).toBeLessThan(grouped);
    expect(groups.stats.largestGroup).toBeLessThanOrEqual(3);
    expect(await verifyLedger(handle.db)).toEqual([]);
  });

  it('refuses, in a group, only the request that names an archived merchant', async () => {
    const [kept, refused] = fx.customerIds.slice(8, 10) as [string, string];
    await handle.db.execute(sql`update merchants set status = 'archived' where id = ${fx.merchantId}`);
    try {
      const outcomes = await createEntriesTogether(deps, [entryRequest(purchase(kept)), entryRequest({ ...purchase(refused), merchantId: fx.merchantId })]);
      expect(outcomes[0]!.ok).toBe(true);
      expect(outcomes[1]!.ok).toBe(false);
      if (outcomes[1]!.ok) return;
      expect(outcomes[1]!.error).toBeInstanceOf(AppError);
      expect((outcomes[1]!.error as AppError).fieldIssues).toEqual([{ field: 'merchantId', text: 'merchant_not_active' }]);
    } finally {
      await handle.db.execute(sql`update merchants set status = 'active' where id = ${fx.merchantId}`);
    }
  });
});
