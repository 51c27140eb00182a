import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper.ts';
import { createLedgerFixture } from '../../../test/ledger-fixtures.ts';
import { depsOf } from '../../lib/caller.ts';
import { seedPrivacyDemo } from './privacy.seed.ts';
import { listPrivacyRequests } from './privacy.service.ts';

const ctx = await createTestContext();
afterAll(() => ctx.close());

describe('the demo privacy requests', () => {
  it('loads four requests once, one of them due within a week', async () => {
    await createLedgerFixture(ctx.app.db, { customers: 4 });
    expect(await seedPrivacyDemo(ctx.app.db, { now: ctx.app.clock.now() })).toBe(4);
    expect(await seedPrivacyDemo(ctx.app.db)).toBe(0);
    const page = await listPrivacyRequests(depsOf(ctx.app), { page: 1, pageSize: 25, sort: 'dueAt', order: 'asc', isPending: true });
    expect(page.total).toBe(3);
    expect(page.items[0]).toMatchObject({ kind: 'access', status: 'open' });
    expect(page.items[0]!.daysLeft).toBeLessThan(7);
  });
});
