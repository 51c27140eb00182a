import type { FastifyInstance } from 'fastify';

/**
 * Work that must not delay the answer (e-mails of forgot-password and register: waiting for them
 * would tell known addresses from unknown ones by timing). Failures are logged, never answered;
 * closing the app waits for what is still running so that nothing is cut off mid-send.
 */
export function createAfterReply(app: FastifyInstance) {
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
  });
  return function afterReply(what: string, work: () => Promise<void>): void {
    const task = Promise.resolve()
      .then(work)
      .catch((error: unknown) => app.log.error({ err: error, task: what }, 'background task failed'))
      .finally(() => pending.delete(task));
    pending.add(task);
  };
}
