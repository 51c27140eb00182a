import type { FastifyInstance } from 'fastify';

// PLACEHOLDER — being written now; replaced before the first commit.
export function startNewsScheduler(_app: FastifyInstance, _intervalMs: number) {
  return { stop() {} };
}
