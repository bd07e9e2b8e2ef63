import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import { sha256Hex } from '../../lib/crypto.js';
import { createAccount } from '../access/accounts.js';
import { createApiKey } from '../access/keys.js';
import { SCOPES } from '../access/scopes.js';
import { recordAudit } from '../access/audit.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { budgets, clearSignInFailures, reserve } from './throttle.js';
import { deleteOtherSessions, deleteUserSessions } from './sessions.js';
import { checkSecondFactor, enableTwoFactor, removeTwoFactor } from './two-factor.js';

type TokenPurpose = 'confirm_email' | 'reset_password' | 'change_email';
const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = { confirm_email: 48 * 3_600_000, reset_password: 3_600_000, change_email: 48 * 3_600_000 };

/** The stored form of an emailed token (its SHA-256), shared with invitations (team.ts). */
export const tokenHash = (token: string): Buffer => Buffer.from(sha256Hex(token), 'hex');
export const normalEmail = (email: string): string => email.trim().toLowerCase();

/** A single-use token for an emailed link; only its SHA-256 is stored. */
/** The shape of every emailed token (32 random bytes, base64url). */
export const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
export const newToken = (): string => randomBytes(32).toString('base64url');

export async function issueToken(db: Db, userId: string, purpose: TokenPurpose): Promise<string> {
  const token = newToken();
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
  if (!TOKEN_FORMAT.test(token)) return undefined;
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

/** Who acts in a developer's audit entries: the user, their email and the client address. */
export const signInActor = (userId: string, email: string, address: string) => ({ kind: 'developer' as const, userId, email, address });

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

export const actorOf = (user: { id: string; email: string }, address: string) => signInActor(user.id, user.email, address);

type Checked = { kind: 'ok'; user: { id: string; email: string; account_id: string } } | { kind: 'refused' | 'throttled' };

/**
 * The current password of a signed-in user, checked as sign-in checks it: one of the email's and
 * the address's sign-in attempts and one of the address's hashes are reserved first (plus
 * `moreHashes` for the work that follows), the right password gives its attempt back.
 */
async function checkCurrentPassword(db: Db, userId: string, password: string, address: string, moreHashes = 0): Promise<Checked> {
  const user = await db('developer_users').where({ id: userId }).first('id', 'email', 'account_id', 'password_hash');
  if (!user) return { kind: 'refused' };
  const attempt = budgets.signIn(address, user.email);
  const hashes = Array.from({ length: 1 + moreHashes }, () => budgets.hash(address));
  const reservation = await reserve(db, [...attempt, ...hashes]);
  if (!reservation) return { kind: 'throttled' };
  if (!(await verifyPassword(user.password_hash, password))) return { kind: 'refused' };
  await reservation.release(attempt.map((budget) => budget.subject));
  return { kind: 'ok', user };
}

/**
 * Changes the password of a signed-in user who gives the current one: every other session of the
 * user ends (this one stays) and pending reset links are void.
 */
export async function changePassword(
  db: Db,
  input: { userId: string; sessionId: string; current: string; password: string; address: string },
): Promise<'changed' | 'refused' | 'throttled'> {
  const checked = await checkCurrentPassword(db, input.userId, input.current, input.address, 1);
  if (checked.kind !== 'ok') return checked.kind;
  const { user } = checked;
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (trx) => {
    await trx('developer_users').where({ id: user.id }).update({ password_hash: passwordHash });
    await trx('developer_tokens').where({ user_id: user.id, purpose: 'reset_password' }).whereNull('used_at').update({ used_at: trx.fn.now() });
    // Whoever else holds a session (a stolen cookie, a forgotten computer) is out with the old password.
    await deleteOtherSessions(trx, user.id, input.sessionId);
    await recordAudit(trx, actorOf(user, input.address), { accountId: user.account_id, action: 'password.changed', target: { type: 'user', id: user.id } });
  });
  return 'changed';
}

/**
 * Asks to move a signed-in user's email to `newEmail`: a single-use link (48 h) for the new address,
 * which changes it when opened. When the address belongs to another user no link is made (`taken`),
 * but the same statements run and the caller answers the same: the page never tells whether an
 * address has an account. A new request voids the links of earlier ones.
 */
export async function requestEmailChange(
  db: Db,
  input: { userId: string; current: string; newEmail: string; address: string },
): Promise<{ kind: 'requested'; taken: boolean; oldEmail: string; newEmail: string; token: string } | { kind: 'refused' | 'throttled' }> {
  const checked = await checkCurrentPassword(db, input.userId, input.current, input.address);
  if (checked.kind !== 'ok') return checked;
  const { user } = checked;
  const newEmail = normalEmail(input.newEmail);
  const token = randomBytes(32).toString('base64url');
  return db.transaction(async (trx) => {
    await trx('developer_tokens').where({ user_id: user.id, purpose: 'change_email' }).whereNull('used_at').update({ used_at: trx.fn.now() });
    const { rows } = await trx.raw<{ rows: unknown[] }>(
      `INSERT INTO developer_tokens (token_hash, user_id, purpose, expires_at, new_email)
       SELECT ?, ?, 'change_email', ?, ? WHERE NOT EXISTS (SELECT 1 FROM developer_users WHERE email = ?) RETURNING user_id`,
      [tokenHash(token), user.id, new Date(Date.now() + TOKEN_LIFETIME_MS.change_email), newEmail, newEmail],
    );
    // The account's own log may show the address it asked for: it tells nothing of the address's owner.
    await recordAudit(trx, actorOf(user, input.address), {
      accountId: user.account_id,
      action: 'email.change_requested',
      target: { type: 'user', id: user.id },
      details: { new_email: newEmail },
    });
    return { kind: 'requested' as const, taken: rows.length === 0, oldEmail: user.email, newEmail, token };
  });
}

/**
 * Uses an email change link: the user's email becomes the link's address, links sent to the old one
 * (reset, earlier changes) are void. `invalid` when the link is unknown, used or expired, or the
 * address was taken since.
 */
export async function confirmEmailChange(db: Db, token: string, address: string): Promise<'changed' | 'invalid'> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return 'invalid';
  try {
    return await db.transaction(async (trx) => {
      const [row] = await trx('developer_tokens')
        .where({ token_hash: tokenHash(token), purpose: 'change_email' })
        .whereNull('used_at')
        .where('expires_at', '>', trx.fn.now())
        .update({ used_at: trx.fn.now() })
        .returning(['user_id', 'new_email']);
      if (!row) return 'invalid';
      const before = await trx('developer_users').where({ id: row.user_id }).first('email', 'account_id');
      await trx('developer_users')
        .where({ id: row.user_id })
        .update({ email: row.new_email, email_confirmed_at: trx.raw('coalesce(email_confirmed_at, now())') });
      await trx('developer_tokens')
        .where({ user_id: row.user_id })
        .whereIn('purpose', ['reset_password', 'change_email'])
        .whereNull('used_at')
        .update({ used_at: trx.fn.now() });
      await recordAudit(trx, signInActor(row.user_id, row.new_email, address), {
        accountId: before.account_id,
        action: 'email.changed',
        target: { type: 'user', id: row.user_id },
        details: { from: before.email, to: row.new_email },
      });
      return 'changed';
    });
  } catch (error) {
    // The address was taken by a sign-up after the link was sent: the link does nothing.
    if ((error as { code?: string }).code === '23505') return 'invalid';
    throw error;
  }
}

/** Turns two-factor sign-in on with the first code of the waiting secret; the recovery codes, shown once. */
export async function confirmTwoFactor(
  db: Db,
  key: Buffer,
  input: { userId: string; code: string; address: string },
): Promise<{ kind: 'enabled'; recoveryCodes: string[] } | { kind: 'wrong' | 'throttled' }> {
  const reservation = await reserve(db, budgets.code(input.address, input.userId));
  if (!reservation) return { kind: 'throttled' };
  return db.transaction(async (trx) => {
    const user = await trx('developer_users').where({ id: input.userId }).first('id', 'email', 'account_id');
    const recoveryCodes = user && (await enableTwoFactor(trx, key, user.id, input.code));
    if (!recoveryCodes) return { kind: 'wrong' as const };
    await reservation.release();
    await recordAudit(trx, actorOf(user, input.address), { accountId: user.account_id, action: '2fa.enabled', target: { type: 'user', id: user.id } });
    return { kind: 'enabled' as const, recoveryCodes };
  });
}

/** Turns two-factor sign-in off: the current password and a code (TOTP or recovery) are both needed. */
export async function disableTwoFactor(
  db: Db,
  key: Buffer,
  input: { userId: string; current: string; code: string; address: string },
): Promise<'disabled' | 'refused' | 'wrong' | 'replayed' | 'throttled'> {
  const checked = await checkCurrentPassword(db, input.userId, input.current, input.address);
  if (checked.kind !== 'ok') return checked.kind;
  const { user } = checked;
  const reservation = await reserve(db, budgets.code(input.address, user.id));
  if (!reservation) return 'throttled';
  return db.transaction(async (trx) => {
    const factor = await checkSecondFactor(trx, key, user.id, input.code);
    if (factor === 'wrong' || factor === 'replayed') return factor;
    await reservation.release();
    const target = { type: 'user' as const, id: user.id };
    if (factor === 'recovery') await recordAudit(trx, actorOf(user, input.address), { accountId: user.account_id, action: '2fa.recovery_code_used', target });
    await removeTwoFactor(trx, user.id);
    await recordAudit(trx, actorOf(user, input.address), { accountId: user.account_id, action: '2fa.disabled', target });
    return 'disabled';
  });
}

/** The account's members as a closing's email reaches them: the owners' addresses. */
export async function ownerEmails(db: Db, accountId: string): Promise<string[]> {
  const rows = await db('developer_users').where({ account_id: accountId, role: 'owner' }).orderBy('created_at').select('email');
  return rows.map((row) => row.email as string);
}

/** Whether `password` is the user's current one (within the sign-in budgets, as every sensitive action of the space). */
export async function checkPasswordOf(db: Db, userId: string, password: string, address: string): Promise<'ok' | 'refused' | 'throttled'> {
  return (await checkCurrentPassword(db, userId, password, address)).kind;
}

/**
 * A closed account's developers erased (issue 53): each user's email becomes a placeholder no one
 * can receive, the password hash one no password matches; sessions, links, second factors and
 * recovery codes go. The rows stay (the audit log and the closing refer to their ids). Within the
 * closing's transaction; answers how many users were erased.
 */
export async function eraseAccountDevelopers(trx: Db, accountId: string): Promise<number> {
  const users = await trx('developer_users').where({ account_id: accountId }).select('id');
  for (const { id } of users as { id: string }[]) {
    await deleteUserSessions(trx, id);
    await trx('developer_sessions').where({ pending_user_id: id }).delete();
    await removeTwoFactor(trx, id);
    await trx('developer_tokens').where({ user_id: id }).delete();
    await trx('developer_users')
      .where({ id })
      .update({ email: `erased-${id}@erased.invalid`, password_hash: '!erased', email_confirmed_at: null });
  }
  return users.length;
}
