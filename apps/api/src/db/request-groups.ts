/**
 * Group commit for concurrent requests (decision 027): requests that arrive while the database is
 * busy with earlier ones wait in a queue, and each free slot takes every waiting request it can into
 * ONE database call — for ledger writes one transaction (one round trip to lock and read for all of
 * them, one to write them all and commit).
 *
 * Why: on our machines a round trip costs both processes a socket write and a wake-up, and a commit a
 * WAL flush; at a few hundred writes per second those, not the rows, were the API's and PostgreSQL's
 * work. A lone request never waits for company: with a slot free it starts at once, alone.
 *
 * What keeps it right:
 * - requests that share a conflict key (for the ledger: the same member, the same idempotency key)
 *   never share a group: the later one waits for a later group;
 * - each request gets its own result or error; what a failed group means is the caller's to decide
 *   (`runGroup`: the ledger runs each request of a failed transaction again on its own).
 */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export type RequestGroupOptions = {
  /** Groups in flight at once (each holds one connection). */
  slots: number;
  /** Requests per group at most. */
  maxGroupSize: number;
};

type Waiting<Item, Result> = {
  item: Item;
  conflictKeys: string[];
  resolve: (value: Result) => void;
  reject: (error: unknown) => void;
};

export type RequestGroupStats = { groups: number; requests: number; largestGroup: number };

export class RequestGroups<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  private running = 0;
  readonly stats: RequestGroupStats = { groups: 0, requests: 0, largestGroup: 0 };

  constructor(
    private readonly runGroup: (items: Item[]) => Promise<Settled<Result>[]>,
    private readonly options: RequestGroupOptions,
  ) {}

  /** Queues one request; its own result (or error) when its group has run. */
  submit(item: Item, conflictKeys: string[]): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, conflictKeys, resolve, reject });
      this.startGroups();
    });
  }

  private startGroups(): void {
    while (this.running < this.options.slots && this.waiting.length > 0) {
      const group = this.takeGroup();
      this.running += 1;
      this.stats.groups += 1;
      this.stats.requests += group.length;
      this.stats.largestGroup = Math.max(this.stats.largestGroup, group.length);
      void this.run(group).finally(() => {
        this.running -= 1;
        this.startGroups();
      });
    }
  }

  /** The oldest waiting requests that conflict with none taken before them, in arrival order. */
  private takeGroup(): Waiting<Item, Result>[] {
    const taken: Waiting<Item, Result>[] = [];
    const left: Waiting<Item, Result>[] = [];
    const keys = new Set<string>();
    for (const waiting of this.waiting) {
      if (taken.length < this.options.maxGroupSize && waiting.conflictKeys.every((key) => !keys.has(key))) {
        taken.push(waiting);
        for (const key of waiting.conflictKeys) keys.add(key);
      } else {
        left.push(waiting);
      }
    }
    this.waiting = left;
    return taken;
  }

  private async run(group: Waiting<Item, Result>[]): Promise<void> {
    try {
      const results = await this.runGroup(group.map((waiting) => waiting.item));
      group.forEach((waiting, index) => {
        const result = results[index];
        if (!result) waiting.reject(new Error('a write group returned no result for one of its requests'));
        else if (result.ok) waiting.resolve(result.value);
        else waiting.reject(result.error);
      });
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
    }
  }
}

/** A promise's outcome as a value (a group's requests each get their own). */
export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}
