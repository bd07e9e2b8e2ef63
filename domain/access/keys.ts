import { POSTAL_SETTING_COLUMNS, settingsOf, type PostalRow, type PostalSettings } from './postal-settings.js';
import type { Db } from '../../db/knex.js';
import { decrypt, encrypt, randomBase62, sha256Hex } from '../../lib/crypto.js';
import type { KeyMode, Scope } from './scopes.js';
import { recordAudit, type Actor } from './audit.js';
import type { AddressCheck } from '../mailings/request.js';

export const KEY_PATTERN = /^svc_(test|live)_[0-9A-Za-z]{32}$/;

/** A new secret API key; only its SHA-256 is stored. */
export function generateApiKey(mode: KeyMode): string {
  return `svc_${mode}_${randomBase62(32)}`;
}

/** The key's SHA-256 (hex): what the key cache and the checks compare. */
export function apiKeyDigest(key: string): string {
  return sha256Hex(key);
}

/** The stored form (bytea) of a key digest. */
export const digestBytes = (digest: string): Buffer => Buffer.from(digest, 'hex');

/** What api_keys.key_hash holds for a key. */
export const hashApiKey = (key: string): Buffer => digestBytes(apiKeyDigest(key));

const sealContext = (accountId: string): string => `test-key:${accountId}`;

/**
 * A new key of the account, recorded in the audit log (by `actor`) in the same transaction. Given
 * `sealKey` (the service's SECRET_KEY), a test key is also kept sealed, so that its account can see
 * it again (revealTestKey); a live key never is.
 */
export async function createApiKey(
  db: Db,
  accountId: string,
  mode: KeyMode,
  scopes: readonly Scope[],
  actor?: Actor,
  sealKey?: Buffer,
): Promise<{ id: string; key: string }> {
  const key = generateApiKey(mode);
  const last4 = key.slice(-4);
  const sealed = mode === 'test' && sealKey ? encrypt(key, sealKey, sealContext(accountId)) : null;
  return db.transaction(async (trx) => {
    const [row] = await trx('api_keys')
      .insert({ account_id: accountId, mode, key_hash: hashApiKey(key), last4, scopes: [...scopes], key_sealed: sealed })
      .returning('id');
    await recordAudit(trx, actor, { accountId, action: 'key.created', target: { type: 'key', id: row.id }, details: { mode, last4, scopes: [...scopes] } });
    return { id: row.id as string, key };
  });
}

/** Old counter windows are useless once their minute or day is over. */
export async function purgeExpiredCounters(db: Db): Promise<void> {
  await db.raw(`DELETE FROM rate_limit_windows WHERE window_start < floor(extract(epoch FROM now()) / 60)::bigint - 1`);
  await db.raw(`DELETE FROM sandbox_usage WHERE day < (now() AT TIME ZONE 'Europe/Paris')::date - 1`);
}

/**
 * Revokes a key given in clear or by id (revoking twice keeps the first time, and records it once
 * in the audit log); undefined when there is no such key, or, given `accountId`, none of that account's.
 */
export async function revokeApiKey(
  db: Db,
  keyOrId: string,
  owner: { accountId?: string } = {},
  actor?: Actor,
): Promise<{ id: string; revokedAt: Date } | undefined> {
  const where = KEY_PATTERN.test(keyOrId) ? { key_hash: hashApiKey(keyOrId) } : /^[0-9a-f-]{36}$/i.test(keyOrId) ? { id: keyOrId } : undefined;
  if (!where) return undefined;
  return db.transaction(async (trx) => {
    const key = await trx('api_keys')
      .where(where)
      .modify((query) => {
        if (owner.accountId) void query.where({ account_id: owner.accountId });
      })
      .forUpdate()
      .first('id', 'account_id', 'mode', 'last4', 'revoked_at');
    if (!key) return undefined;
    if (key.revoked_at) return { id: key.id as string, revokedAt: key.revoked_at as Date };
    const [row] = await trx('api_keys').where({ id: key.id }).update({ revoked_at: trx.fn.now() }).returning(['id', 'revoked_at']);
    await recordAudit(trx, actor, {
      accountId: key.account_id,
      action: 'key.revoked',
      target: { type: 'key', id: key.id },
      details: { mode: key.mode, last4: key.last4 },
    });
    return { id: row.id as string, revokedAt: row.revoked_at as Date };
  });
}

export interface KeySummary {
  id: string;
  mode: KeyMode;
  /** `svc_test_` or `svc_live_`: with last4, all that is shown of a key after its creation. */
  prefix: string;
  last4: string;
  scopes: Scope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** A test key kept sealed: its account may see it again. */
  revealable: boolean;
}

/** An account's keys, newest first, revoked ones included. */
export async function listApiKeys(db: Db, accountId: string): Promise<KeySummary[]> {
  const rows = await db('api_keys')
    .where({ account_id: accountId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select('id', 'mode', 'last4', 'scopes', 'created_at', 'last_used_at', 'revoked_at', db.raw('key_sealed IS NOT NULL AS revealable'));
  return rows.map((row) => ({
    id: row.id,
    mode: row.mode,
    prefix: `svc_${row.mode}_`,
    last4: row.last4,
    scopes: row.scopes,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    revealable: row.revealable === true && !row.revoked_at,
  }));
}

/**
 * One of the account's active test keys in clear, again, recorded in the audit log; undefined for a
 * live key, a revoked one, another account's, or a test key created before keys were kept sealed.
 */
export async function revealTestKey(db: Db, accountId: string, keyId: string, sealKey: Buffer, actor?: Actor): Promise<string | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(keyId)) return undefined;
  return db.transaction(async (trx) => {
    const row = await trx('api_keys')
      .where({ id: keyId, account_id: accountId, mode: 'test' })
      .whereNull('revoked_at')
      .whereNotNull('key_sealed')
      .first('key_sealed', 'last4');
    if (!row) return undefined;
    const key = decrypt(row.key_sealed as string, sealKey, sealContext(accountId));
    await recordAudit(trx, actor, { accountId, action: 'key.revealed', target: { type: 'key', id: keyId }, details: { mode: 'test', last4: row.last4 } });
    return key;
  });
}

/** How often, at most, a process writes that a key was used. */
export const LAST_USED_PRECISION_MS = 60_000;

/** Notes that a key was used (the trigger on api_keys ignores this column: no cache is dropped). */
export async function recordKeyUse(db: Db, keyId: string): Promise<void> {
  await db('api_keys').where({ id: keyId }).update({ last_used_at: db.fn.now() });
}

/** A key with what authentication needs of its account (the API keeps them: api/caches/key-store.ts). */
export interface KeyRecord {
  keyId: string;
  /** SHA-256 of the key, hex. */
  keyDigest: string;
  accountId: string;
  mode: KeyMode;
  scopes: Scope[];
  revoked: boolean;
  accountStatus: 'active' | 'suspended';
  liveEnabled: boolean;
  balanceCents: number;
  /** options.addressCheck when a mailing does not say (accounts.address_check_default). */
  addressCheckDefault: AddressCheck;
  /** The account's return envelope and archive settings (./postal-settings.ts): known with the key, as the balance is. */
  postalSettings: PostalSettings;
}

/** The key with this digest (apiKeyDigest) and its account, or null when there is none. */
export async function findKeyRecord(db: Db, keyDigest: string): Promise<KeyRecord | null> {
  const row = await db('api_keys as k')
    .join('accounts as a', 'a.id', 'k.account_id')
    .where('k.key_hash', digestBytes(keyDigest))
    .first(
      'k.id',
      'k.key_hash',
      'k.account_id',
      'k.mode',
      'k.scopes',
      'k.revoked_at',
      'a.status',
      'a.closure',
      'a.live_enabled',
      'a.balance_cents',
      'a.address_check_default',
      ...POSTAL_SETTING_COLUMNS.map((column) => `a.${column}`),
    );
  if (!row) return null;
  return {
    keyId: row.id,
    keyDigest: (row.key_hash as Buffer).toString('hex'),
    accountId: row.account_id,
    mode: row.mode,
    scopes: row.scopes,
    revoked: row.revoked_at !== null,
    // A closing (or closed) account's keys are refused as a suspended account's are: 403 account_suspended.
    accountStatus: row.closure === null ? row.status : 'suspended',
    liveEnabled: row.live_enabled,
    balanceCents: Number(row.balance_cents),
    addressCheckDefault: row.address_check_default,
    postalSettings: settingsOf(row as PostalRow),
  };
}

/**
 * Revokes every key of a closed account at once, within the closing's transaction (one audit entry
 * per key, as `revokeApiKey`); the API's caches learn it on `auth_changed` when it commits.
 */
export async function revokeAccountKeys(trx: Db, accountId: string, actor?: Actor): Promise<number> {
  const rows = await trx('api_keys')
    .where({ account_id: accountId })
    .whereNull('revoked_at')
    .update({ revoked_at: trx.fn.now() })
    .returning(['id', 'mode', 'last4']);
  for (const key of rows) {
    await recordAudit(trx, actor, { accountId, action: 'key.revoked', target: { type: 'key', id: key.id }, details: { mode: key.mode, last4: key.last4 } });
  }
  return rows.length;
}
