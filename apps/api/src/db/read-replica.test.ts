import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { parseLsn, ReplicaMonitor } from './read-replica.ts';

/**
 * The replica's lag and state, judged from what the two servers answer (stand-ins here; the cluster
 * drills run it against a real streaming replica: `npm run test:cluster`).
 */
function server(answer: () => Record<string, unknown> | Error) {
  return {
    query: async () => {
      const row = answer();
      if (row instanceof Error) throw row;
      return { rows: [row] };
    },
  } as unknown as pg.Pool;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the read replica monitor', () => {
  it('reads WAL positions as PostgreSQL writes them, and nothing else', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn('16/B374D848')! > parseLsn('15/FFFFFFFF')!).toBe(true);
    for (const bad of ['', '0/', 'x/1', '1/2/3', '0/123456789', null, undefined]) expect(parseLsn(bad)).toBeNull();
  });

  it('is up with no lag when the replica has replayed what the primary wrote, and serves callers who wrote up to there', async () => {
    const monitor = new ReplicaMonitor(server(() => ({ lsn: '0/200' })), server(() => ({ is_replica: true, lsn: '0/200' })), { maxLagMs: 1000, pollMs: 100_000 });
    await monitor.poll();
    expect(monitor.current()).toEqual({ state: 'up', lagMs: 0 });
    expect(monitor.canServe(0n)).toBe(true);
    expect(monitor.canServe(0x200n)).toBe(true);
    // A caller whose write the replica has not replayed yet reads the primary.
    expect(monitor.canServe(0x201n)).toBe(false);
  });

  it('measures the lag as the age of the oldest write not replayed, and skips the replica past the limit', async () => {
    let primary = '0/200';
    let replayed = '0/100';
    const monitor = new ReplicaMonitor(server(() => ({ lsn: primary })), server(() => ({ is_replica: true, lsn: replayed })), { maxLagMs: 60, pollMs: 100_000 });
    await monitor.poll();
    expect(monitor.current().state).toBe('up');
    primary = '0/300';
    await sleep(80);
    await monitor.poll();
    expect(monitor.current().state).toBe('lagging');
    expect(monitor.current().lagMs).toBeGreaterThanOrEqual(60);
    expect(monitor.canServe(0n)).toBe(false);
    // It replays the first write: the lag is now the second one's age.
    replayed = '0/200';
    await monitor.poll();
    expect(monitor.current().lagMs).toBeLessThan(60);
    expect(monitor.current().state).toBe('up');
    replayed = '0/300';
    await monitor.poll();
    expect(monitor.current()).toEqual({ state: 'up', lagMs: 0 });
  });

  it('is down when the replica does not answer, or is no replica (promoted), until it answers as one again', async () => {
    let replica: Record<string, unknown> | Error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const logged: string[] = [];
    const monitor = new ReplicaMonitor(server(() => ({ lsn: '0/200' })), server(() => replica), {
      maxLagMs: 1000,
      pollMs: 100_000,
      log: (level, message) => logged.push(`${level}: ${message}`),
    });
    await monitor.poll();
    expect(monitor.current()).toEqual({ state: 'down', lagMs: null });
    expect(monitor.canServe(0n)).toBe(false);
    replica = { is_replica: false, lsn: null };
    await monitor.poll();
    expect(monitor.current().state).toBe('down');
    replica = { is_replica: true, lsn: '0/200' };
    await monitor.poll();
    expect(monitor.current().state).toBe('up');
    monitor.markDown(new Error('a read failed'));
    expect(monitor.canServe(0n)).toBe(false);
    // Logged on each change of state only.
    expect(logged).toEqual(['info: read replica in use', 'warn: read replica down: reads go to the primary']);
  });
});
