import type { Db } from '../../db/knex.js';
import { randomBase62, sha256 } from '../../lib/crypto.js';
import type { KeyMode, Scope } from './scopes.js';

export const KEY_PATTERN = /^svc_(test|live)_[0-9A-Za-z]{32}$/;

/** A new secret API key; only its SHA-256 is stored. */
export function generateApiKey(mode: KeyMode): string {
  return `svc_${mode}_${randomBase62(32)}`;
}

export function hashApiKey(key: string): Buffer {
  return sha256(key);
}

export async function createApiKey(db: Db, accountId: string, mode: KeyMode, scopes: readonly Scope[]): Promise<{ id: string; key: string }> {
  const key = generateApiKey(mode);
  const [row] = await db('api_keys')
    .insert({ account_id: accountId, mode, key_hash: hashApiKey(key), last4: key.slice(-4), scopes: [...scopes] })
    .returning('id');
  return { id: row.id as string, key };
}

/** What one authenticated request learns about its key, account and shared counters. */
export interface KeyCheck {
  keyId: string;
  keyHash: Buffer;
  accountId: string;
  mode: KeyMode;
  scopes: Scope[];
  revoked: boolean;
  accountStatus: 'active' | 'suspended';
  liveEnabled: boolean;
  balanceCents: number;
  /** Calls of this key in the current minute, this one included; null when the key was refused. */
  rateCount: number | null;
  rateResetSeconds: number;
  /** Calls of the account's test keys today (Europe/Paris), this one included; null for live keys. */
  sandboxCount: number | null;
}

/**
 * One round trip per request: finds the key by hash and, when it may be used, counts the call in
 * the per-minute window of the key and, for test keys, in the account's sandbox day. The counters
 * live in Postgres so that every API process shares them; the clock is the database's.
 */
export async function checkKey(db: Db, key: string, rateLimit: number): Promise<KeyCheck | undefined> {
  const { rows } = await db.raw(
    `WITH clock AS (
       SELECT floor(extract(epoch FROM now()) / 60)::bigint AS window_start,
              60 - floor(extract(epoch FROM now()))::bigint % 60 AS reset_seconds,
              (now() AT TIME ZONE 'Europe/Paris')::date AS paris_day
     ), k AS (
       SELECT k.id, k.account_id, k.mode, k.scopes, k.key_hash, k.revoked_at IS NOT NULL AS revoked,
              a.status, a.live_enabled, a.balance_cents
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.key_hash = ?
     ), rl AS (
       INSERT INTO rate_limit_windows AS w (key_id, window_start, count)
       SELECT k.id, clock.window_start, 1 FROM k, clock
        WHERE NOT k.revoked AND k.status = 'active' AND (k.mode = 'test' OR k.live_enabled)
       ON CONFLICT (key_id, window_start) DO UPDATE SET count = w.count + 1
       RETURNING count
     ), sandbox AS (
       INSERT INTO sandbox_usage AS s (account_id, day, count)
       SELECT k.account_id, clock.paris_day, 1 FROM k, rl, clock
        WHERE k.mode = 'test' AND rl.count <= ?
       ON CONFLICT (account_id, day) DO UPDATE SET count = s.count + 1
       RETURNING count
     )
     SELECT k.*, (SELECT count FROM rl) AS rate_count, (SELECT count FROM sandbox) AS sandbox_count,
            (SELECT reset_seconds FROM clock) AS reset_seconds
       FROM k`,
    [hashApiKey(key), rateLimit],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    keyId: row.id,
    keyHash: row.key_hash,
    accountId: row.account_id,
    mode: row.mode,
    scopes: row.scopes,
    revoked: row.revoked,
    accountStatus: row.status,
    liveEnabled: row.live_enabled,
    balanceCents: Number(row.balance_cents),
    rateCount: row.rate_count === null ? null : Number(row.rate_count),
    rateResetSeconds: Number(row.reset_seconds),
    sandboxCount: row.sandbox_count === null ? null : Number(row.sandbox_count),
  };
}

/** Old counter windows are useless once their minute or day is over. */
export async function purgeExpiredCounters(db: Db): Promise<void> {
  await db.raw(`DELETE FROM rate_limit_windows WHERE window_start < floor(extract(epoch FROM now()) / 60)::bigint - 1`);
  await db.raw(`DELETE FROM sandbox_usage WHERE day < (now() AT TIME ZONE 'Europe/Paris')::date - 1`);
}
