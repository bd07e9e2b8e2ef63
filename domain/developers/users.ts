import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import { sha256Hex } from '../../lib/crypto.js';
import { createAccount } from '../access/accounts.js';
import { createApiKey } from '../access/keys.js';
import { SCOPES } from '../access/scopes.js';
import { recordAudit } from '../access/audit.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { budgets, clearSignInFailures, reserve } from './throttle.js';
import { deleteUserSessions } from './sessions.js';

type TokenPurpose = 'confirm_email' | 'reset_password';
const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = { confirm_email: 48 * 3_600_000, reset_password: 3_600_000 };

const tokenHash = (token: string): Buffer => Buffer.from(sha256Hex(token), 'hex');
export const normalEmail = (email: string): string => email.trim().toLowerCase();

/** A single-use token for an emailed link; only its SHA-256 is stored. */
async function issueToken(db: Db, userId: string, purpose: TokenPurpose): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db('developer_tokens').insert({
    token_hash: tokenHash(token),
    user_id: userId,
    purpose,
    expires_at: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]),
  });
  return token;
}

/** Uses a token once: the user it was issued to, or undefined (unknown, expired, used, other purpose). */
async function useToken(db: Db, token: string, purpose: TokenPurpose): Promise<string | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const [row] = await db('developer_tokens')
    .where({ token_hash: tokenHash(token), purpose })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning('user_id');
  return row?.user_id as string | undefined;
}

/**
 * Signs up: a new account (sandbox only) and its user, waiting for the email to be confirmed.
 * `exists` when the email already has an account: the caller answers the same either way and
 * tells the owner by email. The password is hashed in both cases so both take as long; each hash
 * spends one of the client address's (`throttled` once they are spent).
 */
export async function signUp(
  db: Db,
  input: { email: string; password: string; address: string },
): Promise<{ kind: 'created'; confirmToken: string } | { kind: 'exists' } | { kind: 'throttled' }> {
  const email = normalEmail(input.email);
  if (!(await reserve(db, [budgets.hash(input.address)]))) return { kind: 'throttled' };
  const passwordHash = await hashPassword(input.password);
  if (await db('developer_users').where({ email }).first('id')) return { kind: 'exists' };
  try {
    return await db.transaction(async (tx) => {
      const { id: accountId } = await createAccount(tx, { name: email });
      const [user] = await tx('developer_users').insert({ account_id: accountId, email, password_hash: passwordHash }).returning('id');
      return { kind: 'created' as const, confirmToken: await issueToken(tx, user.id, 'confirm_email') };
    });
  } catch (error) {
    // Two sign-ups with the same email at once: the second finds it taken.
    if ((error as { code?: string }).code === '23505') return { kind: 'exists' };
    throw error;
  }
}

/** Confirms the email of the link's user; false when the link is unknown, used or expired. */
export async function confirmEmail(db: Db, token: string): Promise<boolean> {
  const userId = await useToken(db, token, 'confirm_email');
  if (!userId) return false;
  await db('developer_users')
    .where({ id: userId })
    .update({ email_confirmed_at: db.raw('coalesce(email_confirmed_at, now())') });
  return true;
}

export type SignInResult =
  | { kind: 'signed_in'; userId: string; accountId: string }
  /** Wrong password or unknown email: the same answer. */
  | { kind: 'refused' }
  /** Too many failures for this email or this address, or too many hashes for this address: refused whatever the password. */
  | { kind: 'throttled' }
  /** The right password, but the email is not confirmed yet: a new confirmation link is issued. */
  | { kind: 'unconfirmed'; confirmToken: string };

const signInActor = (userId: string, email: string, address: string) => ({ kind: 'developer' as const, userId, email, address });

export async function signIn(db: Db, input: { email: string; password: string; address: string }): Promise<SignInResult> {
  const email = normalEmail(input.email);
  // The attempt is counted before the password is checked, so that attempts sent together cannot
  // all be checked against a count none of them has raised yet; the right password gives it back.
  const attempt = budgets.signIn(input.address, email);
  const reservation = await reserve(db, [...attempt, budgets.hash(input.address)]);
  if (!reservation) return { kind: 'throttled' };
  const user = await db('developer_users').where({ email }).first('id', 'account_id', 'password_hash', 'email_confirmed_at');
  if (!(await verifyPassword(user?.password_hash, input.password))) {
    // A wrong password for an existing user is a security event of that account (throttled above: 5 per 15 minutes).
    if (user)
      await recordAudit(db, signInActor(user.id, email, input.address), {
        accountId: user.account_id,
        action: 'signin.failed',
        target: { type: 'user', id: user.id },
      });
    return { kind: 'refused' };
  }
  await reservation.release(attempt.map((budget) => budget.subject));
  if (!user.email_confirmed_at) return { kind: 'unconfirmed', confirmToken: await issueToken(db, user.id, 'confirm_email') };
  await recordAudit(db, signInActor(user.id, email, input.address), {
    accountId: user.account_id,
    action: 'signin.succeeded',
    target: { type: 'user', id: user.id },
  });
  return { kind: 'signed_in', userId: user.id, accountId: user.account_id };
}

/**
 * A password-reset token, recorded when the email has an account (`found`). Both cases run the
 * same statement and make a token, so that neither takes longer: the caller answers the same and
 * queues the email with `when: found`.
 */
export async function requestPasswordReset(db: Db, email: string): Promise<{ found: boolean; email: string; resetToken: string }> {
  const token = randomBytes(32).toString('base64url');
  const address = normalEmail(email);
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `INSERT INTO developer_tokens (token_hash, user_id, purpose, expires_at)
     SELECT ?, id, 'reset_password', ? FROM developer_users WHERE email = ? RETURNING user_id`,
    [tokenHash(token), new Date(Date.now() + TOKEN_LIFETIME_MS.reset_password), address],
  );
  return { found: rows.length > 0, email: address, resetToken: token };
}

/** True when the reset link is still valid (without using it). */
export async function resetTokenValid(db: Db, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
  const row = await db('developer_tokens')
    .where({ token_hash: tokenHash(token), purpose: 'reset_password' })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .first('user_id');
  return row !== undefined;
}

/**
 * Sets a new password through a reset link (used once): every other reset link of the user is void,
 * every session of the user ends, and the link proves the email, so it is confirmed too. `invalid`
 * when the link is not valid; `throttled` when the client address has spent its hashes.
 */
export async function resetPassword(db: Db, token: string, password: string, address: string): Promise<'changed' | 'invalid' | 'throttled'> {
  if (!(await reserve(db, [budgets.hash(address)]))) return 'throttled';
  const passwordHash = await hashPassword(password);
  return db.transaction(async (trx) => {
    const userId = await useToken(trx, token, 'reset_password');
    if (!userId) return 'invalid';
    const [user] = await trx('developer_users')
      .where({ id: userId })
      .update({ password_hash: passwordHash, email_confirmed_at: trx.raw('coalesce(email_confirmed_at, now())') })
      .returning(['email', 'account_id']);
    // A link sent before, maybe to a mailbox read by someone else, must not set the password again.
    await trx('developer_tokens').where({ user_id: userId, purpose: 'reset_password' }).whereNull('used_at').update({ used_at: trx.fn.now() });
    await deleteUserSessions(trx, userId);
    await clearSignInFailures(trx, user.email);
    await recordAudit(
      trx,
      { kind: 'developer', userId, email: user.email, address },
      { accountId: user.account_id, action: 'password.reset', target: { type: 'user', id: userId } },
    );
    return 'changed';
  });
}

/**
 * The sandbox key of a new account, created at its first sign-in with every scope (the same domain
 * function as the admin CLI); undefined when the account already has a key.
 */
export async function firstSandboxKey(db: Db, accountId: string, sealKey?: Buffer): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    // One first key even if two sign-ins race.
    await tx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`first-key:${accountId}`]);
    if (await tx('api_keys').where({ account_id: accountId }).first('id')) return undefined;
    return (await createApiKey(tx, accountId, 'test', SCOPES, undefined, sealKey)).key;
  });
}
