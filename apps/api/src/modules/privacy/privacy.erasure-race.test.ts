import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { systemClock } from '../../lib/clock.ts';
import type { Caller, ServiceDeps } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { createTemplateDatabase, testDatabaseKind } from '../../../test/helper.ts';
import { createLedgerFixture, type LedgerFixture } from '../../../test/ledger-fixtures.ts';
import { verifyLedger } from '../ledger/ledger.verify.ts';
import { decideProofs, submitProof } from '../social-proofs/social-proofs.service.ts';
import { createPrivacyRequest, runPrivacyAction } from './privacy.service.ts';

const CUSTOMERS = 12;

/**
 * An erasure racing what staff and the app still do with the person (an operator with Approvazioni or
 * the privacy queue open, the app filing a proof): whatever order the transactions take, once the
 * erasures have committed nothing is open on an erased person, nothing failed but with a refusal (no
 * deadlock), and the ledger adds up.
 *
 * Real PostgreSQL only: PGlite runs one transaction at a time, so nothing would race there.
 */
describe.skipIf(testDatabaseKind === 'pglite')('an erasure racing decisions, new proofs and requests (real PostgreSQL)', () => {
  let handle: DatabaseHandle;
  let drop = async () => undefined as void;
  let fx: LedgerFixture;
  let deps: ServiceDeps;
  let caller: Caller;
  const app = { label: 'app', audit: { id: null, email: 'app' }, channel: 'app' as const };

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    const database = await createTemplateDatabase('era');
    handle = await openDatabase({ url: database.url, poolSize: 20 });
    drop = async () => {
      await handle.close();
      await database.drop();
    };
    fx = await createLedgerFixture(handle.db, { customers: CUSTOMERS });
    deps = { db: handle.db, clock: systemClock, timeZone: 'Europe/Rome' };
    // A real staff member: a request's handler and author point at users(id).
    const [user] = await rows<{ id: string; email: string }>(
      sql`insert into users (email, password_hash, role, display_name, profile) values ('race@demo.test', 'x', 'admin', 'Race', '{}'::jsonb) returning id, email`,
    );
    caller = { actor: { id: user!.id, email: user!.email }, userId: user!.id, language: 'it' };
    const share = { points: 25, capPerMonth: 0 };
    const none = { points: 0, capPerMonth: 0 };
    const bonuses = { referrer: none, referee: none, share, review: none, checkIn: none, birthday: none };
    await handle.db.execute(sql`update programs set bonuses = ${JSON.stringify(bonuses)}::jsonb where id = ${fx.pointsProgramId}`);
  });
  afterAll(async () => drop());

  it('erasing while the person’s proof is approved, a proof filed and a request answered or filed: nothing left open, no deadlock', { timeout: 300_000 }, async () => {
    const people = [];
    for (const customerId of fx.customerIds) {
      const { proof } = await submitProof(deps, app, { customerId, programId: fx.pointsProgramId, kind: 'share', url: 'https://instagram.com/p/race' });
      const access = await createPrivacyRequest(deps, caller, { kind: 'access', customerId });
      const erasure = await createPrivacyRequest(deps, caller, { kind: 'erasure', customerId });
      people.push({ customerId, proof, access, erasure });
    }

    const races = people.flatMap(({ customerId, proof, access, erasure }) => [
      runPrivacyAction(deps, caller, erasure.id, { action: 'erase', version: erasure.version }).then(() => 'erased'),
      decideProofs(deps, caller, { ids: [proof.id], decision: 'approve' }).then((result) => result.items[0]!.code ?? result.items[0]!.outcome),
      runPrivacyAction(deps, caller, access.id, { action: 'close', version: access.version }).then(() => 'closed'),
      submitProof(deps, app, { customerId, programId: fx.pointsProgramId, kind: 'share', url: `https://instagram.com/p/${randomUUID()}` }).then(() => 'filed'),
      createPrivacyRequest(deps, caller, { kind: 'rectification', customerId }).then(() => 'requested'),
    ]);
    const settled = await Promise.allSettled(races);
    // A refusal is an answer (409: erased, not active, version); anything else — a deadlock — is not
    // (the database error is the failed query's cause: "deadlock detected").
    const unexpected = settled.flatMap((outcome) => (outcome.status === 'rejected' && !(outcome.reason instanceof AppError) ? [String((outcome.reason as { cause?: unknown }).cause ?? outcome.reason)] : []));
    expect(unexpected).toEqual([]);
    const erasures = settled.filter((_, index) => index % 5 === 0);
    expect(erasures.every((outcome) => outcome.status === 'fulfilled')).toBe(true);

    const ids = sql.join(fx.customerIds.map((id) => sql`${id}`), sql`, `);
    expect(await rows(sql`select id from customers where id in (${ids}) and status <> 'erased'`)).toEqual([]);
    expect(await rows(sql`select id from social_proofs where customer_id in (${ids}) and status = 'pending'`)).toEqual([]);
    expect(await rows(sql`select id from privacy_requests where customer_id in (${ids}) and status in ('open', 'in_progress')`)).toEqual([]);
    // A proof paid is one approved before the erasure (its entry exists); none is paid after it.
    const paid = await rows<{ n: number }>(
      sql`select count(*)::int as n from social_proofs p where p.customer_id in (${ids}) and p.status = 'approved'
            and not exists (select 1 from ledger_entries e where e.id = p.entry_id)`,
    );
    expect(paid[0]!.n).toBe(0);
    expect(await verifyLedger(handle.db)).toEqual([]);
  });
});
