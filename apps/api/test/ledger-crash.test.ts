import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/modules/ledger/ledger.verify.ts';
import { createServerDatabase, type ServerDatabase } from './helper.ts';
import { createLedgerFixture, type LedgerFixture } from './ledger-fixtures.ts';
import { signedInClient, startServer, type ServerProcess } from './server-process.ts';

const PURCHASES = 120;
/** Tills and members: more tills than the ledger's write slots, so purchases also share transactions. */
const TILLS = 8;
const MEMBERS = 4;

/**
 * kill -9 the REAL server process in the middle of a stream of idempotent purchases, start it
 * again, retry every request that was not acknowledged with its own key: each purchase must be
 * counted exactly once (no loss, no double), on this run's kind of database.
 */
describe('the ledger across a crash of the server process', () => {
  let database: ServerDatabase;
  const started: ServerProcess[] = [];
  let fx: LedgerFixture;

  beforeAll(async () => {
    database = await createServerDatabase('ledger-crash');
    const own = await database.open();
    fx = await createLedgerFixture(own.db, { customers: MEMBERS });
    await own.close();
  });

  afterAll(async () => {
    for (const server of started) server.child.kill('SIGKILL');
    await database.remove();
  });

  it('counts every purchase exactly once after kill -9 and retries', { timeout: 300_000 }, async () => {
    const requests = Array.from({ length: PURCHASES }, (_, index) => ({
      key: `crash-${randomUUID()}`,
      // 1.00 € × (index + 1) at 1 point per euro: purchase i is worth i + 1 points, for member i mod 4.
      body: { customerId: fx.customerIds[index % MEMBERS]!, programId: fx.pointsProgramId, merchantId: fx.merchantId, kind: 'purchase', amountCents: 100 * (index + 1) },
    }));
    const acknowledged = new Map<string, number>();

    const first = await startServer({ dataDir: database.dataDir, env: database.env });
    started.push(first);
    const one = await signedInClient(first);

    // Eight tills stream purchases; the process dies by SIGKILL once a third are acknowledged.
    let next = 0;
    let killed = false;
    const till = async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        try {
          const response = await one.client.request('POST', '/api/admin/ledger', {
            token: one.token,
            body: request.body,
            headers: { 'idempotency-key': request.key },
          });
          if (response.status === 201) {
            acknowledged.set(request.key, ((await response.json()) as { entry: { id: number } }).entry.id);
          } else {
            expect(response.status, await response.text()).toBe(201);
          }
        } catch {
          // The connection died with the process: this request is not acknowledged.
        }
        if (!killed && acknowledged.size >= PURCHASES / 3) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: TILLS }, till));
    await first.exited;
    expect(killed).toBe(true);
    expect(acknowledged.size).toBeLessThan(PURCHASES);

    const second = await startServer({ dataDir: database.dataDir, env: database.env });
    started.push(second);
    const two = await signedInClient(second);
    // Retry everything not acknowledged (some may have been committed before the kill), and a few
    // acknowledged ones too: the answer must be the stored one.
    const acknowledgedKeys = [...acknowledged.keys()];
    const retries = [...requests.filter((r) => !acknowledged.has(r.key)), ...requests.filter((r) => acknowledgedKeys.slice(0, 5).includes(r.key))];
    for (const request of retries) {
      const response = await two.client.request('POST', '/api/admin/ledger', {
        token: two.token,
        body: request.body,
        headers: { 'idempotency-key': request.key },
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const { entry } = (await response.json()) as { entry: { id: number } };
      if (acknowledged.has(request.key)) {
        expect(entry.id).toBe(acknowledged.get(request.key));
        expect(response.headers.get('idempotent-replayed')).toBe('true');
      }
    }

    let balances = 0;
    let entries = 0;
    for (const [member, customerId] of fx.customerIds.entries()) {
      const memberships = await two.client.request('GET', `/api/admin/customers/${customerId}/memberships`, { token: two.token });
      const { items } = (await memberships.json()) as { items: { programId: string; balance: number }[] };
      const balance = items.find((m) => m.programId === fx.pointsProgramId)?.balance;
      // Member m got purchases m, m + 4, m + 8, …: each worth its index + 1 points.
      const expected = requests.reduce((sum, _, index) => (index % MEMBERS === member ? sum + index + 1 : sum), 0);
      expect(balance).toBe(expected);
      balances += balance ?? 0;
      const list = await two.client.request('GET', `/api/admin/ledger?customerId=${customerId}&pageSize=1`, { token: two.token });
      entries += ((await list.json()) as { total: number }).total;
    }
    expect(balances).toBe((PURCHASES * (PURCHASES + 1)) / 2);
    expect(entries).toBe(PURCHASES);

    expect(await second.stop()).toBe(0);
    const own = await database.open();
    try {
      expect(await verifyLedger(own.db)).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
