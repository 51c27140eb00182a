import type { FastifyInstance } from 'fastify';
import type { JobModule } from '../../lib/job-runner.ts';
import { IMPORT_JOB, importDeps } from './imports.service.ts';
import { runImportJob } from './imports.run.ts';

/** Imports run as background jobs: one chunk per job run, resumed from the last committed batch. */
export function importJobs(app: FastifyInstance): JobModule {
  const deps = importDeps(app);
  return { handlers: { [IMPORT_JOB]: (payload) => runImportJob(deps, app.db, payload) } };
}
