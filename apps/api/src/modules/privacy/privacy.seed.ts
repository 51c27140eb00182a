import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { privacyRequests } from './privacy.schema.ts';
import { addMonths } from './privacy.service.ts';

const DAY = 86_400_000;

/**
 * A few GDPR requests for the demo, so the queue is not empty: one due in three days (highlighted),
 * one fresh, one extended, one already handled. Only into a database that has customers and no
 * request yet.
 */
export async function seedPrivacyDemo(db: Database, options: { log?: FastifyBaseLogger; now?: Date } = {}): Promise<number> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const existing = (await tx.execute(sql`select exists (select 1 from privacy_requests) as present`)) as unknown as { rows: { present: boolean }[] };
    if (existing.rows[0]?.present) return 0;
    const customers = (await tx.execute(
      sql`select id from customers where status = 'active' order by created_at, id limit 4`,
    )) as unknown as { rows: { id: string }[] };
    const admin = (await tx.execute(sql`select id from users where email = 'admin@demo.test'`)) as unknown as { rows: { id: string }[] };
    const ids = customers.rows.map((row) => row.id);
    if (ids.length < 4) return 0;
    const adminId = admin.rows[0]?.id ?? null;
    const at = (days: number) => new Date(now.getTime() - days * DAY);
    const requests: (typeof privacyRequests.$inferInsert)[] = [
      { kind: 'access', customerId: ids[0]!, receivedAt: at(27), dueAt: addMonths(at(27), 1), notes: 'Richiesta arrivata via email al DPO.' },
      { kind: 'erasure', customerId: ids[1]!, receivedAt: at(4), dueAt: addMonths(at(4), 1) },
      {
        kind: 'portability',
        customerId: ids[2]!,
        receivedAt: at(45),
        dueAt: addMonths(at(45), 3),
        extendedAt: at(20),
        extensionReason: 'Dati da raccogliere presso più esercenti del circuito.',
        status: 'in_progress',
      },
      { kind: 'rectification', customerId: ids[3]!, receivedAt: at(60), dueAt: addMonths(at(60), 1), status: 'done', handledBy: adminId, handledAt: at(52) },
    ];
    await tx.insert(privacyRequests).values(requests.map((request) => ({ ...request, createdBy: adminId, createdAt: request.receivedAt, updatedAt: request.receivedAt })));
    options.log?.info({ count: requests.length }, 'demo privacy requests loaded');
    return requests.length;
  });
}
