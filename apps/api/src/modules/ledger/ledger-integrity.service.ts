import type { FastifyInstance } from 'fastify';
import { asc, notInArray } from 'drizzle-orm';
import { isRebuildable, type IntegrityFigure, type IntegrityFinding } from '@sf/contract/integrity';
import type { Database, Executor } from '../../db/client.ts';
import { recordAudit, SYSTEM_ACTOR } from '../../lib/audit.ts';
import { enqueueJob, type JobModule } from '../../lib/job-runner.ts';
import { ledgerIntegrityFindings } from './ledger.schema.ts';
import { addDays, localDate, startOfLocalDay } from '../../lib/business-days.ts';
import { verifyDerivedFigures, type VerifyResult } from './ledger.verify.ts';

/**
 * The nightly check in production (decision record 030): once per business day, in the quiet hours,
 * a job runs `ledger:verify`'s checks. What it finds wrong is written to the audit log and kept, per
 * kind of figure with the day it was first seen, for the dashboard's "Integrità dei dati" notice to
 * admins; a later check (the next night's, or the one `ledger:rebuild` runs) that finds it right
 * again clears it, and says so in the audit log.
 */
export const VERIFY_JOB = 'ledger.verify';

/** When the check runs: after the day's expiry and the rollups' fold, before the day's work. */
const CHECK_HOUR = 4;
const EXAMPLES = 5;

/** Stores a check's outcome; returns the figures found wrong. */
export async function recordIntegrityCheck(db: Database, result: VerifyResult, now: Date): Promise<IntegrityFigure[]> {
  const byFigure = new Map<IntegrityFigure, string[]>();
  for (const problem of result.problems) byFigure.set(problem.figure, [...(byFigure.get(problem.figure) ?? []), problem.text]);
  const failing = [...byFigure.keys()];
  await db.transaction(async (tx) => {
    const before = await tx.select({ figure: ledgerIntegrityFindings.figure }).from(ledgerIntegrityFindings);
    const restored = before.map((row) => row.figure).filter((figure) => !byFigure.has(figure));
    if (failing.length > 0) {
      await tx.delete(ledgerIntegrityFindings).where(notInArray(ledgerIntegrityFindings.figure, failing));
    } else {
      await tx.delete(ledgerIntegrityFindings);
    }
    for (const [figure, texts] of byFigure) {
      await tx
        .insert(ledgerIntegrityFindings)
        .values({ figure, firstSeenAt: now, lastSeenAt: now, problems: texts.length, examples: texts.slice(0, EXAMPLES) })
        .onConflictDoUpdate({
          target: ledgerIntegrityFindings.figure,
          set: { lastSeenAt: now, problems: texts.length, examples: texts.slice(0, EXAMPLES) },
        });
    }
    if (failing.length > 0) {
      await recordAudit(tx, SYSTEM_ACTOR, {
        action: 'ledger.integrity.mismatch',
        entityType: 'ledger',
        after: Object.fromEntries([...byFigure].map(([figure, texts]) => [figure, { problems: texts.length, examples: texts.slice(0, EXAMPLES) }])),
      });
    }
    if (restored.length > 0) {
      await recordAudit(tx, SYSTEM_ACTOR, { action: 'ledger.integrity.restored', entityType: 'ledger', after: { figures: restored } });
    }
  });
  return failing;
}

/** The kinds of figure the latest check found wrong (the dashboard's notice), oldest finding first. */
export async function integrityFindings(db: Executor): Promise<IntegrityFinding[]> {
  const rows = await db.select().from(ledgerIntegrityFindings).orderBy(asc(ledgerIntegrityFindings.firstSeenAt), asc(ledgerIntegrityFindings.figure));
  return rows.map((row) => ({
    figure: row.figure,
    firstSeenAt: row.firstSeenAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    problems: row.problems,
    isRebuildable: isRebuildable(row.figure),
    examples: row.examples,
  }));
}

/** Runs the checks and stores their outcome (the job's body; also after `ledger:rebuild`). */
export async function checkIntegrity(db: Database, options: { timeZone: string; now: Date }) {
  const result = await verifyDerivedFigures(db, { timeZone: options.timeZone });
  const failing = await recordIntegrityCheck(db, result, options.now);
  return { failing, problems: result.problems.length, seconds: result.timings.reduce((sum, t) => sum + t.ms, 0) / 1000 };
}

export function integrityJobs(app: FastifyInstance): JobModule {
  const timeZone = app.env.BUSINESS_TIME_ZONE;
  return {
    // The checks read the whole ledger: minutes on ten million entries (decision 032). Another
    // process must not take the job over meanwhile.
    leaseSeconds: { [VERIFY_JOB]: 2 * 3600 },
    // Queued by every process under the day's key (one run per day), due at the next CHECK_HOUR —
    // never at a start in the middle of the day: on the embedded database the checks hold its one
    // connection for seconds, which nobody should meet on their first screen.
    schedule: async () => {
      const now = app.clock.now();
      let day = localDate(now, timeZone);
      const at = (d: string) => new Date(startOfLocalDay(d, timeZone).getTime() + CHECK_HOUR * 3_600_000);
      if (at(day).getTime() <= now.getTime()) day = addDays(day, 1);
      await enqueueJob(app.db, { kind: VERIFY_JOB, dedupeKey: `${VERIFY_JOB}:${day}`, runAt: at(day) });
    },
    handlers: {
      [VERIFY_JOB]: async () => {
        const outcome = await checkIntegrity(app.db, { timeZone, now: app.clock.now() });
        if (outcome.failing.length > 0) app.log.error({ figures: outcome.failing, problems: outcome.problems }, 'ledger integrity check found differences');
        return outcome;
      },
    },
  };
}
