import { randomUUID } from 'node:crypto';

/**
 * The drills' load: tills recording purchases through the integration API, and staff reading lists,
 * both through the balancer, counting what they see.
 *
 * A till retries what was not acknowledged — the same request with the same Idempotency-Key, after the
 * answer's Retry-After (or a short pause when there is none, e.g. a connection cut) — until it is. So
 * every purchase ends acknowledged, and the ledger must hold each exactly once.
 */
export type TillStats = {
  /** Requests sent, retries included. */
  requests: number;
  /** Purchases acknowledged (201), each with its Idempotency-Key. */
  acknowledged: string[];
  /** Answers that were not an acknowledgement, by status (`network` for a cut connection). */
  failures: Record<string, number>;
  /** Of those, answers 503 that carried Retry-After. */
  unavailableWithRetryAfter: number;
  retries: number;
  /** Acknowledgements of a retry that replayed an earlier write (its first answer was lost). */
  replayed: number;
  /** Purchases still not acknowledged a minute after the load was stopped (there should be none). */
  givenUp: string[];
  /** What the first cut connections said (the driver's cause), to tell them apart. */
  networkErrors: string[];
  /** When failures were seen (ms since the load started): first and last. */
  firstFailureAt: number | null;
  lastFailureAt: number | null;
  latenciesMs: number[];
};

export type Load<S> = { stop(): Promise<S>; stats: S; startedAt: number };

export function startTills(options: {
  baseUrl: string;
  keys: string[];
  cards: string[];
  programId: string;
  /** Longest wait a till honours from Retry-After (ms). */
  maxRetryWaitMs?: number;
}): Load<TillStats> {
  const stats: TillStats = {
    requests: 0,
    acknowledged: [],
    failures: {},
    unavailableWithRetryAfter: 0,
    retries: 0,
    replayed: 0,
    givenUp: [],
    networkErrors: [],
    firstFailureAt: null,
    lastFailureAt: null,
    latenciesMs: [],
  };
  const startedAt = Date.now();
  let isStopping = false;
  let giveUpAt = Infinity;
  let next = 0;
  const failed = (kind: string) => {
    stats.failures[kind] = (stats.failures[kind] ?? 0) + 1;
    const at = Date.now() - startedAt;
    stats.firstFailureAt ??= at;
    stats.lastFailureAt = at;
  };

  const purchase = async (key: string) => {
    const idempotencyKey = randomUUID();
    const body = JSON.stringify({ cardNumber: options.cards[next++ % options.cards.length], amountCents: 1250, programId: options.programId });
    for (let attempt = 0; ; attempt += 1) {
      if (attempt > 0) stats.retries += 1;
      stats.requests += 1;
      const sent = Date.now();
      let wait = 200;
      try {
        const response = await fetch(`${options.baseUrl}/api/integration/v1/purchases`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        if (response.status === 201) {
          stats.latenciesMs.push(Date.now() - sent);
          stats.acknowledged.push(idempotencyKey);
          if (response.headers.get('idempotent-replayed') === 'true') stats.replayed += 1;
          return;
        }
        failed(String(response.status));
        const retryAfter = response.headers.get('retry-after');
        if (response.status === 503 && retryAfter) {
          stats.unavailableWithRetryAfter += 1;
          wait = Number(retryAfter) * 1000;
        }
      } catch (error) {
        failed('network');
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        if (stats.networkErrors.length < 5) stats.networkErrors.push(`${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${cause?.code ?? ''} ${cause?.message ?? String(error)}`);
      }
      if (Date.now() > giveUpAt) {
        stats.givenUp.push(idempotencyKey);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, options.maxRetryWaitMs ?? 5_000)));
    }
  };

  const till = async (key: string) => {
    while (!isStopping) await purchase(key);
  };
  const running = Promise.all(options.keys.map((key) => till(key)));
  return {
    stats,
    startedAt,
    async stop() {
      isStopping = true;
      giveUpAt = Date.now() + 60_000;
      await running;
      return stats;
    },
  };
}

export type ReaderStats = { requests: number; ok: number; failures: Record<string, number>; latenciesMs: number[] };

/** Staff reading the lists and the dashboard (the reads the replica serves), `readers` at a time. */
export function startReaders(options: { baseUrl: string; token: string; readers: number; paths: string[] }): Load<ReaderStats> {
  const stats: ReaderStats = { requests: 0, ok: 0, failures: {}, latenciesMs: [] };
  const startedAt = Date.now();
  let isStopping = false;
  let next = 0;
  const reader = async () => {
    while (!isStopping) {
      const url = options.paths[next++ % options.paths.length]!;
      stats.requests += 1;
      const sent = Date.now();
      try {
        const response = await fetch(`${options.baseUrl}${url}`, { headers: { 'x-auth-token': options.token }, signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        if (response.status === 200) {
          stats.ok += 1;
          stats.latenciesMs.push(Date.now() - sent);
        } else {
          stats.failures[String(response.status)] = (stats.failures[String(response.status)] ?? 0) + 1;
        }
      } catch {
        stats.failures['network'] = (stats.failures['network'] ?? 0) + 1;
      }
    }
  };
  const running = Promise.all(Array.from({ length: options.readers }, () => reader()));
  return {
    stats,
    startedAt,
    async stop() {
      isStopping = true;
      await running;
      return stats;
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
