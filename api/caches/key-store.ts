import type { Db } from '../../db/knex.js';
import { listenTo, type ChannelListener } from '../../db/listener.js';
import { findKeyRecord, type KeyRecord } from '../../domain/access/keys.js';

interface Entry {
  record: KeyRecord;
  expiresAt: number;
}

/** Safety net only: every change is announced on `auth_changed` and dropped at once. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;
/**
 * Unknown keys are remembered too (each would otherwise cost a query), apart and bounded: a flood
 * of made-up keys evicts the oldest unknown ones, never a valid key.
 */
const MAX_MISSES = 10_000;

/** Sets `key` as the newest entry of a Map used as an LRU list, dropping the oldest past `max`. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/**
 * Keys and their accounts, cached in the process so that an authenticated call costs no database
 * round trip. A trigger announces every change of a key or an account (revocation, suspension,
 * balance) on the `auth_changed` channel; this process listens and forgets that account at once.
 * While the listening connection is down nothing is cached.
 */
export class KeyStore {
  private readonly entries = new Map<string, Entry>();
  /** Digests of unknown keys, with when to forget them. */
  private readonly misses = new Map<string, number>();
  private readonly byAccount = new Map<string, Set<string>>();
  /** One database lookup per key at a time, however many requests wait for it. */
  private readonly loading = new Map<string, Promise<KeyRecord | null>>();
  /** Bumped by every invalidation: a lookup that raced with one is not cached. */
  private generation = 0;
  private listener: ChannelListener | undefined;

  constructor(
    private readonly db: Db,
    private readonly databaseUrl: string,
    private readonly maxMisses = MAX_MISSES,
  ) {}

  async start(): Promise<void> {
    this.listener = await listenTo(this.databaseUrl, 'auth_changed', { notify: (accountId) => this.forgetAccount(accountId), reset: () => this.clear() });
  }

  async stop(): Promise<void> {
    await this.listener?.stop();
  }

  private get listening(): boolean {
    return this.listener?.listening ?? false;
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.misses.clear();
    this.byAccount.clear();
  }

  private forgetAccount(accountId: string): void {
    this.generation += 1;
    for (const hash of this.byAccount.get(accountId) ?? []) this.entries.delete(hash);
    this.byAccount.delete(accountId);
  }

  /** The cached record synchronously when there is one, else a promise of the database lookup. */
  find(keyDigest: string): KeyRecord | null | Promise<KeyRecord | null> {
    const now = Date.now();
    const cached = this.entries.get(keyDigest);
    if (cached && cached.expiresAt > now) return cached.record;
    if ((this.misses.get(keyDigest) ?? 0) > now) return null;
    return this.lookup(keyDigest);
  }

  private async lookup(name: string): Promise<KeyRecord | null> {
    const generation = this.generation;
    let pending = this.loading.get(name);
    if (!pending) {
      pending = findKeyRecord(this.db, name).finally(() => this.loading.delete(name));
      this.loading.set(name, pending);
    }
    const record = await pending;
    if (this.listening && generation === this.generation) {
      const expiresAt = Date.now() + TTL_MS;
      if (!record) remember(this.misses, name, expiresAt, this.maxMisses);
      else {
        remember(this.entries, name, { record, expiresAt }, MAX_ENTRIES);
        const hashes = this.byAccount.get(record.accountId) ?? new Set<string>();
        hashes.add(name);
        this.byAccount.set(record.accountId, hashes);
      }
    }
    return record;
  }
}
