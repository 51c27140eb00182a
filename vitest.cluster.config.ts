import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the fault drills of issue 29 on a real cluster on loopback — PostgreSQL
 * primary and streaming replica, two API processes, Debian's HAProxy with deploy/haproxy.cfg
 * (apps/api/test/cluster). Kept out of `npm test`: they need HAProxy and take a few minutes.
 */
export default defineConfig({
  test: {
    name: 'cluster',
    include: ['apps/api/test/cluster/**/*.test.ts'],
    environment: 'node',
    // Drills 1–5 share one cluster and run one after another in their file; drill 6 (start-up.test.ts)
    // needs only an empty database and runs beside them.
    maxWorkers: 2,
    testTimeout: 180_000,
    hookTimeout: 240_000,
  },
});
