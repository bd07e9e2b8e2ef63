import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../db/knex.js';
import { decrypt, encrypt, sha256Hex } from '../../lib/crypto.js';

/**
 * TOTP two-factor sign-in (RFC 6238: SHA-1, 6 digits, 30 s, as every authenticator app reads it)
 * and its recovery codes: the SQL of `developer_second_factors` and `developer_recovery_codes`.
 */
const CONTEXT = 'developer-totp';
const PERIOD = 30;
export const RECOVERY_CODES = 10;

const totp = (secret: string, label = ''): TOTP =>
  new TOTP({ issuer: 'Service postal', label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** The `otpauth://` URI an authenticator app imports (the same secret, as a QR code would carry it). */
export const totpUri = (secret: string, email: string): string => totp(secret, email).toString();

/** The code of `secret` at `timestamp` (tests and the local tools compute codes with it). */
export const totpCode = (secret: string, timestamp = Date.now()): string => totp(secret).generate({ timestamp });

/**
 * The 30 s step a code belongs to, within one step either side (clocks drift), or undefined. The
 * caller records the step so that the same code, or an older one, is refused afterwards.
 */
function codeStep(secret: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD) + delta;
}

const normalCode = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase();
const codeHash = (code: string): Buffer => Buffer.from(sha256Hex(normalCode(code)), 'hex');

/** 10 random codes of 12 base32 characters (60 bits), shown as XXXX-XXXX-XXXX. */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => new Secret({ size: 8 }).base32.slice(0, 12).replace(/(.{4})(?=.)/g, '$1-'));
}

export async function twoFactorEnabled(db: Db, userId: string): Promise<boolean> {
  return (await db('developer_second_factors').where({ user_id: userId }).whereNotNull('enabled_at').first('user_id')) !== undefined;
}

/**
 * A new secret waiting for its first code (replaces one that waited); undefined when two-factor
 * sign-in is already on. Stored sealed under `key` (SECRET_KEY).
 */
export async function startTwoFactor(db: Db, key: Buffer, userId: string): Promise<string | undefined> {
  const secret = new Secret({ size: 20 }).base32;
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `INSERT INTO developer_second_factors (user_id, secret_sealed) VALUES (?, ?)
     ON CONFLICT (user_id) DO UPDATE SET secret_sealed = excluded.secret_sealed, last_step = NULL, created_at = now()
       WHERE developer_second_factors.enabled_at IS NULL
     RETURNING user_id`,
    [userId, encrypt(secret, key, CONTEXT)],
  );
  return rows.length > 0 ? secret : undefined;
}

/** The secret waiting for its first code, if any. */
export async function pendingTwoFactorSecret(db: Db, key: Buffer, userId: string): Promise<string | undefined> {
  const row = await db('developer_second_factors').where({ user_id: userId }).whereNull('enabled_at').first('secret_sealed');
  return row && decrypt(row.secret_sealed, key, CONTEXT);
}

/**
 * Turns two-factor sign-in on when `code` is the current code of the waiting secret: its step is
 * recorded (no replay), and 10 new recovery codes are returned, to be shown once (stored hashed).
 * Call within the transaction that records the audit entry.
 */
export async function enableTwoFactor(trx: Db, key: Buffer, userId: string, code: string): Promise<string[] | undefined> {
  const row = await trx('developer_second_factors').where({ user_id: userId }).whereNull('enabled_at').forUpdate().first('secret_sealed');
  if (!row) return undefined;
  const step = codeStep(decrypt(row.secret_sealed, key, CONTEXT), code.trim());
  if (step === undefined) return undefined;
  await trx('developer_second_factors').where({ user_id: userId }).update({ enabled_at: trx.fn.now(), last_step: step });
  const codes = newRecoveryCodes();
  await trx('developer_recovery_codes').where({ user_id: userId }).delete();
  await trx('developer_recovery_codes').insert(codes.map((c) => ({ user_id: userId, code_hash: codeHash(c) })));
  return codes;
}

/**
 * Checks a second factor of a user whose two-factor sign-in is on: a TOTP code not used before
 * (its step later than the last accepted one: a code seen over a shoulder or in a log cannot be
 * replayed within its 30 s), or a recovery code, used up by this check. Each is taken by one
 * conditional UPDATE, so two requests with the same code cannot both pass.
 */
export async function checkSecondFactor(db: Db, key: Buffer, userId: string, input: string): Promise<'totp' | 'recovery' | 'wrong' | 'replayed'> {
  const code = input.trim();
  const row = await db('developer_second_factors').where({ user_id: userId }).whereNotNull('enabled_at').first('secret_sealed');
  if (!row) return 'wrong';
  if (/^\d{6}$/.test(code.replace(/\s/g, ''))) {
    const step = codeStep(decrypt(row.secret_sealed, key, CONTEXT), code.replace(/\s/g, ''));
    if (step === undefined) return 'wrong';
    const taken = await db('developer_second_factors')
      .where({ user_id: userId })
      .where((q) => q.whereNull('last_step').orWhere('last_step', '<', step))
      .update({ last_step: step })
      .returning('user_id');
    return taken.length > 0 ? 'totp' : 'replayed';
  }
  const used = await db('developer_recovery_codes')
    .where({ user_id: userId, code_hash: codeHash(code) })
    .whereNull('used_at')
    .update({ used_at: db.fn.now() })
    .returning('user_id');
  return used.length > 0 ? 'recovery' : 'wrong';
}

/** Recovery codes not used yet. */
export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [{ n }] = await db('developer_recovery_codes').where({ user_id: userId }).whereNull('used_at').count({ n: '*' });
  return Number(n);
}

/** Turns two-factor sign-in off: the secret and the recovery codes are erased. */
export async function removeTwoFactor(trx: Db, userId: string): Promise<void> {
  await trx('developer_recovery_codes').where({ user_id: userId }).delete();
  await trx('developer_second_factors').where({ user_id: userId }).delete();
}
