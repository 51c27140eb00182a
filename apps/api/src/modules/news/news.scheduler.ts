import type { FastifyBaseLogger } from 'fastify';
import type { JobModule } from '../../lib/job-runner.ts';
import { recordAudit, SYSTEM_ACTOR } from '../../lib/audit.ts';
import { lockDuePosts, toNewsPost, updatePostRow } from './news.repository.ts';
import { NEWS_ENTITY, type NewsDeps } from './news.service.ts';

// Bounded batches keep each transaction short; the loop drains a backlog in one run.
const BATCH = 200;

/**
 * Writes down what readers already see: scheduled posts whose publishAt has passed become published
 * in the database, each with an audit entry by the system actor, in one transaction per batch. The
 * version is left alone: the post did not change under its editor, so their pending edit stays valid.
 * Returns the ids promoted.
 */
export async function promoteDuePosts(deps: NewsDeps): Promise<number[]> {
  const promoted: number[] = [];
  for (;;) {
    const now = deps.clock.now();
    const batch = await deps.db.transaction(async (tx) => {
      const due = await lockDuePosts(tx, now, BATCH);
      for (const row of due) {
        await updatePostRow(tx, row.id, { status: 'published' });
        const after = toNewsPost(row);
        await recordAudit(tx, SYSTEM_ACTOR, {
          action: 'news.publish',
          entityType: NEWS_ENTITY,
          entityId: row.id,
          before: { ...after, status: 'scheduled' },
          after,
        });
      }
      return due.map((row) => row.id);
    });
    promoted.push(...batch);
    if (batch.length < BATCH) return promoted;
  }
}

export const PUBLISH_JOB = 'news.publish-due';

/**
 * The promotion as a recurring background job (every SCHEDULER_INTERVAL_MS): one process runs it per
 * period, whichever claims it, where a timer in each process ran it in each (issue 29).
 */
export function newsJobs(app: NewsDeps & { env: { SCHEDULER_INTERVAL_MS: number }; log: FastifyBaseLogger }): JobModule {
  return {
    every: { [PUBLISH_JOB]: app.env.SCHEDULER_INTERVAL_MS },
    handlers: {
      [PUBLISH_JOB]: async () => {
        const ids = await promoteDuePosts(app);
        if (ids.length > 0) app.log.info({ ids }, 'scheduled posts published');
        return { published: ids.length };
      },
    },
  };
}
