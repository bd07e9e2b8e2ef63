import { parisDate } from '../lib/paris-time.js';
import type { Db } from '../db/knex.js';
import { KeyStore } from './caches/key-store.js';
import { LeasedCounter, type CounterResult } from '../domain/access/leased-counter.js';
import { LAST_USED_PRECISION_MS, recordKeyUse, type KeyRecord } from '../domain/access/keys.js';
import { logger } from '../lib/logger.js';
import { FAILED_AUTH_PER_MINUTE, FAILED_PROOF_LINKS_PER_MINUTE, FailureLimiter } from '../domain/access/failure-limiter.js';

/**
 * What authentication needs per request, with no database round trip in the steady state: the
 * cached key record, the key's per-minute window and the account's sandbox day, both shared by
 * every API process.
 */
export class KeyGuard {
  readonly keys: KeyStore;
  /** Failed authentications per client address. */
  readonly failedAuth: FailureLimiter;
  /** Proof links that did not open, per client address (the link is a credential: no guessing). */
  readonly failedProofLinks = new FailureLimiter(FAILED_PROOF_LINKS_PER_MINUTE);
  private readonly minutes: LeasedCounter;
  /** When this process last wrote each key's last_used_at (ms). */
  private readonly lastUseWritten = new Map<string, number>();
  private readonly sandboxDays: LeasedCounter;

  constructor(
    private readonly db: Db,
    databaseUrl: string,
    failedAuthPerMinute?: number,
  ) {
    this.keys = new KeyStore(db, databaseUrl);
    this.failedAuth = new FailureLimiter(failedAuthPerMinute ?? FAILED_AUTH_PER_MINUTE);
    this.minutes = new LeasedCounter(db, 'rate_limit_windows', 'key_id', 'window_start');
    this.sandboxDays = new LeasedCounter(db, 'sandbox_usage', 'account_id', 'day');
  }

  start(): Promise<void> {
    return this.keys.start();
  }

  stop(): Promise<void> {
    return this.keys.stop();
  }

  findKey(keyDigest: string): KeyRecord | null | Promise<KeyRecord | null> {
    return this.keys.find(keyDigest);
  }

  /** The per-key minute window; synchronous in the common case (see LeasedCounter). */
  countCall(keyId: string, limitPerMinute: number): CounterResult | Promise<CounterResult> {
    return this.minutes.take(keyId, Math.floor(Date.now() / 60_000), limitPerMinute);
  }

  /** Notes an authenticated call's key as used: one write per key and minute at most, in the background. */
  noteKeyUse(keyId: string, now = Date.now()): void {
    const written = this.lastUseWritten.get(keyId);
    if (written !== undefined && now - written < LAST_USED_PRECISION_MS) return;
    // Bounded: forgetting them all costs one extra write per key.
    if (this.lastUseWritten.size >= 100_000) this.lastUseWritten.clear();
    this.lastUseWritten.set(keyId, now);
    recordKeyUse(this.db, keyId).catch((error: unknown) => logger.warn({ err: error }, 'could not note when a key was last used'));
  }

  countSandboxCall(accountId: string, dailyQuota: number): CounterResult | Promise<CounterResult> {
    return this.sandboxDays.take(accountId, parisDate(), dailyQuota);
  }
}
