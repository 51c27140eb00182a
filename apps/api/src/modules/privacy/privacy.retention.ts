import { sql } from 'drizzle-orm';
// The notice version written on the withdrawals the purge records (they say why they exist).
import { RETENTION_NOTICE } from '@sf/contract/customers';
import type { FastifyInstance } from 'fastify';
import { SYSTEM_ACTOR, recordAudit } from '../../lib/audit.ts';
import type { ServiceDeps } from '../../lib/caller.ts';
import { depsOf } from '../../lib/caller.ts';
import { enqueueJob, type JobModule } from '../../lib/job-runner.ts';
import { localDate } from '../../lib/business-days.ts';
import { addMonths } from './privacy.service.ts';

export const RETENTION_JOB = 'privacy.retention';

/**
 * How long each purpose's data may be used after the person's last consent (docs/product.md D; Garante,
 * 24 Feb 2005 on loyalty cards): profiling 12 months, marketing 24. Decision record 022.
 */
export const RETENTION_MONTHS = { profiling: 12, marketing: 24 } as const;


export type RetentionReport = {
  at: string;
  purposes: Record<'profiling' | 'marketing', { cutoff: string; purged: number; customerIds: string[] }>;
};

/** How many purged customers' ids the report lists (the count is always whole). */
const REPORT_ID_LIMIT = 1000;

type Rows = { rows: Record<string, unknown>[] };

/**
 * Ends the use for profiling (12 months) and marketing (24 months) of every customer whose last
 * grant of that purpose is older: a withdrawal record per customer and purpose (the history says
 * the purge did it), the current flag off, and one audit record with the report — all in one
 * transaction. Running it twice the same day purges nothing more (the flags are already off).
 */
export async function purgeLapsedConsents(deps: ServiceDeps): Promise<RetentionReport> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const purposes = {} as RetentionReport['purposes'];
    for (const purpose of ['profiling', 'marketing'] as const) {
      const cutoff = addMonths(now, -RETENTION_MONTHS[purpose]);
      const flag = sql.identifier(`${purpose}_consent`);
      const result = (await tx.execute(sql`
        with lapsed as (
          select c.id from customers c
          where c.${flag} and c.status <> 'erased'
            and coalesce((select max(cc.at) from customer_consents cc
                          where cc.customer_id = c.id and cc.purpose = ${purpose} and cc.granted), c.created_at) < ${cutoff}
          for update of c
        ), withdrawn as (
          insert into customer_consents (customer_id, purpose, granted, channel, notice_version, at, recorded_by)
          select id, ${purpose}, false, 'system', ${RETENTION_NOTICE}, ${now}, null from lapsed
          returning customer_id
        )
        update customers set ${flag} = false, updated_at = ${now}
        where id in (select customer_id from withdrawn)
        returning id`)) as unknown as Rows;
      const ids = result.rows.map((row) => String(row['id'])).sort();
      purposes[purpose] = { cutoff: cutoff.toISOString(), purged: ids.length, customerIds: ids.slice(0, REPORT_ID_LIMIT) };
    }
    const report: RetentionReport = { at: now.toISOString(), purposes };
    await recordAudit(tx, SYSTEM_ACTOR, { action: 'retention_purge', entityType: 'retention', after: report });
    return report;
  });
}

/** Once per business day, queued by every process but run by one (dedupe key). */
export function privacyJobs(app: FastifyInstance): JobModule {
  const deps = depsOf(app);
  return {
    schedule: () => enqueueJob(app.db, { kind: RETENTION_JOB, dedupeKey: `${RETENTION_JOB}:${localDate(app.clock.now(), deps.timeZone)}` }),
    handlers: { [RETENTION_JOB]: async () => purgeLapsedConsents(deps) },
  };
}
