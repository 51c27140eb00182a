import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/helper.ts';
import { createWalletMember, purchase, simulatedDevice, type WalletMember } from '../../../test/wallet-helpers.ts';
import { createWalletFixtures, unzipPass, type WalletFixtures } from '../../../test/wallet-fixtures.ts';
import { startApnsStandIn, type ApnsStandIn } from '../../../test/apns-stand-in.ts';
import { createJobRunner, type JobRunner } from '../../lib/job-runner.ts';
import { walletJobs } from './wallet.jobs.ts';
import { syncWallet, walletDepsOf } from './wallet.service.ts';

type Rows<T> = { rows: T[] };

describe('pass updates reach the devices through APNs (issue 27)', () => {
  let ctx: TestContext;
  let wallet: WalletFixtures;
  let apns: ApnsStandIn;
  let member: WalletMember;
  let runner: JobRunner;
  const sync = () => syncWallet(walletDepsOf(ctx.app));

  beforeAll(async () => {
    wallet = createWalletFixtures();
    apns = await startApnsStandIn(wallet);
    ctx = await createTestContext({ env: wallet.env({ APNS_URL: apns.url }) });
    runner = createJobRunner({ db: ctx.app.db, handlers: walletJobs(ctx.app).handlers, log: ctx.app.log, intervalMs: 60_000, isAutomatic: false });
    member = await createWalletMember(ctx, { amountCents: 1000 });
    // The same customer also has a stamp card: two passes, one phone (device A) holding both.
    await purchase(ctx, member.token, member.customerId, member.fx.stampsProgramId, 500);
    const memberships = (await ctx.request({ method: 'GET', url: `/api/admin/customers/${member.customerId}/memberships`, token: member.token })).json().items as { id: string }[];
    const deviceA = simulatedDevice(ctx, { deviceLibraryId: 'phone-a', pushToken: 'token-a', passTypeId: wallet.passTypeId });
    const deviceB = simulatedDevice(ctx, { deviceLibraryId: 'phone-b', pushToken: 'token-b', passTypeId: wallet.passTypeId });
    for (const membership of memberships) {
      const download = await ctx.request({ method: 'GET', url: `/api/admin/memberships/${membership.id}/pass.pkpass`, token: member.token });
      const pass = JSON.parse(unzipPass(download.rawPayload).get('pass.json')!.toString()) as { serialNumber: string; authenticationToken: string };
      expect((await deviceA.register(pass.serialNumber, pass.authenticationToken)).statusCode).toBe(201);
      if (membership.id === member.membershipId) expect((await deviceB.register(pass.serialNumber, pass.authenticationToken)).statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await runner?.stop();
    await ctx?.close();
    await apns?.close();
    wallet?.remove();
  });

  const jobs = async () =>
    ((await ctx.app.db.execute(
      sql`select kind, status, attempts, last_error, run_at > now() + interval '50 seconds' as is_later, payload ->> 'pushToken' as token
          from jobs where kind = 'wallet.apns' order by id`,
    )) as unknown as Rows<{ kind: string; status: string; attempts: number; last_error: string | null; is_later: boolean; token: string }>).rows;

  it('sends one push per device for a burst of changes, with the pass certificate, the topic and an empty payload', async () => {
    for (const amountCents of [1000, 2000, 3000]) await purchase(ctx, member.token, member.customerId, member.fx.pointsProgramId, amountCents);
    await purchase(ctx, member.token, member.customerId, member.fx.stampsProgramId, 500);
    expect(await sync()).toMatchObject({ passes: 2, pushes: 2 });
    await runner.tick();
    expect(apns.refused).toEqual([]);
    expect(apns.pushes.map((push) => push.token).sort()).toEqual(['token-a', 'token-b']);
    expect(apns.pushes.every((push) => push.topic === wallet.passTypeId && push.body === '{}')).toBe(true);
  });

  it('retries with a growing delay while APNs is unreachable, never holding up a purchase, and delivers once it is back', async () => {
    const port = Number(new URL(apns.url).port);
    await apns.close();
    const startedAt = Date.now();
    const answer = await purchase(ctx, member.token, member.customerId, member.fx.pointsProgramId, 1000);
    expect(answer.membership.balance).toBe(80);
    const purchaseMs = Date.now() - startedAt;
    await sync();
    await runner.tick();
    const waiting = (await jobs()).filter((job) => job.status === 'queued');
    expect(waiting.map((job) => job.token).sort()).toEqual(['token-a', 'token-b']);
    expect(waiting.every((job) => job.attempts === 1 && job.is_later && job.last_error !== null)).toBe(true);
    // The purchase took what a purchase takes; the push was never in its way.
    expect(purchaseMs).toBeLessThan(5000);

    apns = await startApnsStandIn(wallet, port);
    // The retry's time has come.
    await ctx.app.db.execute(sql`update jobs set run_at = now() where kind = 'wallet.apns' and status = 'queued'`);
    await runner.tick();
    expect(apns.pushes.map((push) => push.token).sort()).toEqual(['token-a', 'token-b']);
    expect((await jobs()).filter((job) => job.status === 'queued')).toEqual([]);
  });

  it("forgets a device APNs says is gone (410)", async () => {
    apns.gone.add('token-b');
    await purchase(ctx, member.token, member.customerId, member.fx.pointsProgramId, 1000);
    await sync();
    await runner.tick();
    const tokens = ((await ctx.app.db.execute(sql`select distinct push_token from wallet_registrations order by 1`)) as unknown as Rows<{ push_token: string }>).rows;
    expect(tokens.map((row) => row.push_token)).toEqual(['token-a']);
  });
});
