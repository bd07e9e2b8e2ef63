import type { Db } from '../../db/knex.js';

export interface CounterResult {
  allowed: boolean;
  /** Calls still allowed in this window, as far as this process knows. */
  remaining: number;
}

interface Lease {
  /** Tokens this process holds and has not used yet. */
  left: number;
  /** Size of the last reservation. */
  lastWanted: number;
  /** The shared count after our last lease (demand, so it may exceed the limit). */
  sharedCount: number;
  pending?: Promise<void>;
}

/** Largest number of calls one process reserves at once. */
const MAX_LEASE = 1000;

/**
 * A counter shared by every API process through Postgres, without a round trip per call: a
 * process reserves a batch of calls (an eighth of what is left, so processes share fairly) and
 * spends it locally, topping large budgets up before they run out. The shared row only ever
 * grants up to the limit, so the processes together
 * never exceed it; near the limit a process may refuse while another still holds a few reserved
 * calls, never the reverse.
 */
export class LeasedCounter {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly db: Db,
    private readonly table: 'rate_limit_windows' | 'sandbox_usage',
    private readonly idColumn: 'key_id' | 'account_id',
    private readonly windowColumn: 'window_start' | 'day',
  ) {}

  /**
   * Counts one call. Answers synchronously while this process holds reserved calls (the common
   * case: no promise, no database), and with a promise when it must reserve more first.
   */
  take(id: string, window: string | number, limit: number): CounterResult | Promise<CounterResult> {
    const name = `${id}|${window}`;
    let lease = this.leases.get(name);
    if (!lease) {
      this.forgetOtherWindows(window);
      lease = { left: 0, lastWanted: 0, sharedCount: 0 };
      this.leases.set(name, lease);
    }
    if (lease.left > 0) {
      lease.left -= 1;
      // Large budgets are topped up ahead of time, so that calls never wait on the database;
      // small ones (a strict 120/min) are reserved one batch at a time, exactly.
      if (lease.lastWanted >= 8 && lease.left <= lease.lastWanted / 4 && !lease.pending && lease.sharedCount < limit) {
        const current = lease;
        current.pending = this.reserve(current, id, window, limit)
          .catch(() => undefined)
          .finally(() => (current.pending = undefined));
      }
      return { allowed: true, remaining: Math.max(0, limit - lease.sharedCount) + lease.left };
    }
    if (lease.sharedCount >= limit) return { allowed: false, remaining: 0 };
    const current = lease;
    // One reservation at a time per counter; concurrent calls wait for it, then try again.
    current.pending ??= this.reserve(current, id, window, limit).finally(() => (current.pending = undefined));
    return current.pending.then(() => this.take(id, window, limit));
  }

  private async reserve(lease: Lease, id: string, window: string | number, limit: number): Promise<void> {
    const wanted = Math.min(MAX_LEASE, Math.max(1, Math.floor((limit - lease.sharedCount) / 8)));
    const { rows } = await this.db.raw(
      `INSERT INTO ${this.table} AS c (${this.idColumn}, ${this.windowColumn}, count) VALUES (?, ?, ?)
       ON CONFLICT (${this.idColumn}, ${this.windowColumn}) DO UPDATE SET count = c.count + EXCLUDED.count
       RETURNING count`,
      [id, window, wanted],
    );
    const count = Number(rows[0].count);
    const before = count - wanted;
    lease.lastWanted = wanted;
    lease.left += Math.max(0, Math.min(wanted, limit - before));
    lease.sharedCount = count;
  }

  /** Windows are short-lived: drop the leases of windows that are over. */
  private forgetOtherWindows(current: string | number): void {
    if (this.leases.size < 10_000 && Math.random() > 0.01) return;
    for (const name of this.leases.keys()) if (!name.endsWith(`|${current}`)) this.leases.delete(name);
  }
}
