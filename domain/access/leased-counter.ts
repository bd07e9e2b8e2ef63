import type { Db } from '../../db/knex.js';

export interface CounterResult {
  allowed: boolean;
  /** Calls still allowed in this window, as far as this process knows. */
  remaining: number;
}

interface Lease {
  /** The window (minute number or Paris day) these calls belong to. */
  window: string | number;
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
  /** The current window's lease of each id (one entry per key or account, no string built per call). */
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
    return this.spend(this.leaseFor(id, window), id, limit);
  }

  private leaseFor(id: string, window: string | number): Lease {
    const stored = this.leases.get(id);
    if (stored?.window === window) return stored;
    const fresh: Lease = { window, left: 0, lastWanted: 0, sharedCount: 0 };
    // A call that started in the previous window gets a lease of its own for it: only a newer
    // window replaces the stored lease.
    if (stored && window < stored.window) return fresh;
    if (!stored) this.forgetOtherWindows(window);
    this.leases.set(id, fresh);
    return fresh;
  }

  private spend(lease: Lease, id: string, limit: number): CounterResult | Promise<CounterResult> {
    if (lease.left > 0) {
      lease.left -= 1;
      // Large budgets are topped up ahead of time, so that calls never wait on the database;
      // small ones (a strict 120/min) are reserved one batch at a time, exactly.
      if (lease.lastWanted >= 8 && lease.left <= lease.lastWanted / 4 && !lease.pending && lease.sharedCount < limit) {
        lease.pending = this.reserve(lease, id, limit)
          .catch(() => undefined)
          .finally(() => (lease.pending = undefined));
      }
      return { allowed: true, remaining: Math.max(0, limit - lease.sharedCount) + lease.left };
    }
    if (lease.sharedCount >= limit) return { allowed: false, remaining: 0 };
    // One reservation at a time per counter; concurrent calls wait for it, then try again.
    lease.pending ??= this.reserve(lease, id, limit).finally(() => (lease.pending = undefined));
    return lease.pending.then(() => this.spend(lease, id, limit));
  }

  private async reserve(lease: Lease, id: string, limit: number): Promise<void> {
    const wanted = Math.min(MAX_LEASE, Math.max(1, Math.floor((limit - lease.sharedCount) / 8)));
    const { rows } = await this.db.raw(
      `INSERT INTO ${this.table} AS c (${this.idColumn}, ${this.windowColumn}, count) VALUES (?, ?, ?)
       ON CONFLICT (${this.idColumn}, ${this.windowColumn}) DO UPDATE SET count = c.count + EXCLUDED.count
       RETURNING count`,
      [id, lease.window, wanted],
    );
    const count = Number(rows[0].count);
    const before = count - wanted;
    lease.lastWanted = wanted;
    lease.left += Math.max(0, Math.min(wanted, limit - before));
    lease.sharedCount = count;
  }

  /** Windows are short-lived: once many ids have been seen, drop the leases of windows that are over. */
  private forgetOtherWindows(current: string | number): void {
    if (this.leases.size < 10_000) return;
    for (const [id, lease] of this.leases) if (lease.window !== current) this.leases.delete(id);
  }
}
