import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { isDatabaseUnavailable } from './unavailable.ts';

/**
 * Reads on a streaming replica (`DATABASE_READ_URL`, issue 29, decision record 031).
 *
 * Which reads: those made inside a *replica read scope* — the routes that declare `readReplica` (the
 * list kit's pages and exports, the dashboard, the audit list) run their handler in one
 * (plugins/read-replica.ts). The modules build their queries on `app.db` as always; the primary's pool
 * (`ReadRoutingPool`) sends a query made outside any transaction inside a scope to the replica. Anything
 * else — writes, transactions, the reads a write needs, the guard's account check — stays on the primary.
 *
 * When: only while the replica is `up` (its lag under `REPLICA_MAX_LAG_MS`, checked by a poll every
 * second, not per request) and has replayed the scope's `minLsn`: the primary's WAL position after the
 * caller's last write, carried back by a cookie (read-your-writes, exact). A query the replica fails to
 * answer because it is unreachable or stopping, or cancels for a recovery conflict, is sent again to the
 * primary: reads do not fail because the replica does.
 */

export type ReplicaState = 'up' | 'lagging' | 'down';
export type ReplicaStatus = { state: ReplicaState; lagMs: number | null };

type Scope = { minLsn: bigint };
const scopes = new AsyncLocalStorage<Scope>();

/** A WAL position as PostgreSQL writes it (`16/B374D848`), as a number; null when it is not one. */
export function parseLsn(text: string | null | undefined): bigint | null {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text ?? '');
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** Runs `work` with its reads allowed on the replica, for a caller who has seen the primary at `minLsn`. */
export function withReplicaReads<T>(minLsn: string | undefined, work: () => T): T {
  return scopes.run({ minLsn: parseLsn(minLsn) ?? 0n }, work);
}

/** Runs `work` outside any read scope: its queries go to the primary whatever route calls it. */
export function onPrimary<T>(work: () => T): T {
  return scopes.exit(work);
}

/**
 * Errors after which a read is sent again to the primary: the replica unreachable or shutting down;
 * a recovery conflict (40001: the replica cancelled the query to apply the primary's changes); a write
 * that slipped into a read scope (25006: the replica is read-only).
 */
function isForThePrimary(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isDatabaseUnavailable(error) || code === '40001' || code === '25006';
}

export type ReplicaOptions = {
  maxLagMs: number;
  /** How often the lag is measured (default 1000 ms, or a fifth of maxLagMs if less). */
  pollMs?: number;
  log?: (level: 'info' | 'warn', message: string, error?: unknown) => void;
};

/**
 * Measures the replica's lag: every poll it notes the primary's WAL insert position and the time, and
 * asks the replica how far it has replayed. The lag is the age of the oldest noted position the replica
 * has not replayed yet (0 when it has replayed them all): exact to a poll, and zero on an idle primary,
 * where `now() - pg_last_xact_replay_timestamp()` would grow without any lag.
 */
export class ReplicaMonitor {
  private status: ReplicaStatus = { state: 'down', lagMs: null };
  private replayed = 0n;
  private samples: { lsn: bigint; at: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private readonly pollMs: number;

  constructor(
    private readonly primary: pg.Pool,
    private readonly replica: pg.Pool,
    private readonly options: ReplicaOptions,
  ) {
    this.pollMs = options.pollMs ?? Math.max(100, Math.min(1000, Math.floor(options.maxLagMs / 5)));
  }

  /** Polls at once, then every pollMs; the first answer is awaited (reads wait for nothing else). */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
    await this.poll();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
  }

  current(): ReplicaStatus {
    return { ...this.status };
  }

  /** The replica may answer a caller who has seen the primary at `minLsn`. */
  canServe(minLsn: bigint): boolean {
    return this.status.state === 'up' && this.replayed >= minLsn;
  }

  /** A read failed on the replica: skip it until the next poll finds it answering. */
  markDown(error: unknown): void {
    this.setState({ state: 'down', lagMs: null }, error);
  }

  poll(): Promise<void> {
    this.polling ??= this.measure().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private async measure(): Promise<void> {
    const at = Date.now();
    try {
      const { rows } = await withTimeout(this.primary.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn'), this.pollMs * 2);
      const lsn = parseLsn(rows[0]?.lsn);
      if (lsn !== null) this.samples.push({ lsn, at });
      // A replica far behind for long: the oldest unreplayed sample is the one that counts.
      if (this.samples.length > 1000) this.samples.splice(1, 1);
    } catch {
      // The primary does not answer: no new sample; the replica is judged by the ones it has.
    }
    try {
      const { rows } = await withTimeout(
        this.replica.query<{ is_replica: boolean; lsn: string | null }>('select pg_is_in_recovery() as is_replica, pg_last_wal_replay_lsn()::text as lsn'),
        this.pollMs * 2,
      );
      const row = rows[0];
      if (!row?.is_replica) {
        // Promoted, or not a replica at all: its data need not be the primary's.
        this.setState({ state: 'down', lagMs: null }, new Error('DATABASE_READ_URL is not a replica in recovery'));
        return;
      }
      this.replayed = parseLsn(row.lsn) ?? 0n;
      while (this.samples.length > 0 && this.samples[0]!.lsn <= this.replayed) this.samples.shift();
      const lagMs = this.samples.length > 0 ? Date.now() - this.samples[0]!.at : 0;
      this.setState({ state: lagMs > this.options.maxLagMs ? 'lagging' : 'up', lagMs });
    } catch (error) {
      this.setState({ state: 'down', lagMs: null }, error);
    }
  }

  private setState(next: ReplicaStatus, error?: unknown): void {
    const before = this.status.state;
    this.status = next;
    if (before === next.state) return;
    if (next.state === 'up') this.options.log?.('info', 'read replica in use');
    else this.options.log?.('warn', `read replica ${next.state}: reads go to the primary`, error);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The primary's pool, which sends the reads of a replica read scope to the replica (see above).
 * Transactions (`connect()`) always stay on the primary; `connectForRead()` is for a read that needs a
 * connection of its own (an export's COPY).
 */
export class ReadRoutingPool extends pg.Pool {
  private routing: { replica: pg.Pool; monitor: ReplicaMonitor } | undefined;

  attachReplica(replica: pg.Pool, monitor: ReplicaMonitor): void {
    this.routing = { replica, monitor };
  }

  /** The replica, if this call is in a read scope it may serve. */
  private replicaForThisRead(): pg.Pool | null {
    const scope = scopes.getStore();
    if (!scope || !this.routing) return null;
    return this.routing.monitor.canServe(scope.minLsn) ? this.routing.replica : null;
  }

  constructor(config: pg.PoolConfig) {
    super(config);
    const primaryQuery = (...args: unknown[]) => (pg.Pool.prototype.query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    // Assigned, not overridden as a method: the driver's query() has a dozen overloads.
    this.query = ((...args: unknown[]) => {
      const replica = this.replicaForThisRead();
      // The driver's callback form is never used by our code for reads; it stays on the primary.
      if (!replica || typeof args[args.length - 1] === 'function') return primaryQuery(...args);
      return (replica.query as (...a: unknown[]) => Promise<unknown>)(...args).catch((error: unknown) => {
        if (!isForThePrimary(error)) throw error;
        if (isDatabaseUnavailable(error)) this.routing?.monitor.markDown(error);
        return primaryQuery(...args);
      });
    }) as pg.Pool['query'];
  }

  /** A connection for a read of a read scope: the replica's when it may serve, else (or failing) the primary's. */
  async connectForRead(): Promise<{ client: pg.PoolClient; isReplica: boolean }> {
    const replica = this.replicaForThisRead();
    if (replica) {
      try {
        return { client: await replica.connect(), isReplica: true };
      } catch (error) {
        this.routing?.monitor.markDown(error);
      }
    }
    return { client: await this.connect(), isReplica: false };
  }
}
