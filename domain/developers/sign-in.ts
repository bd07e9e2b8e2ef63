import type { Db } from '../../db/knex.js';
import { recordAudit } from '../access/audit.js';
import type { Deps } from '../deps.js';
import { verifyPassword } from './passwords.js';
import { createSession, deleteSession, type Session } from './sessions.js';
import { budgets, reserve } from './throttle.js';
import { checkSecondFactor, twoFactorEnabled } from './two-factor.js';
import { actorOf, firstSandboxKey, issueToken, normalEmail, signInActor } from './users.js';

/**
 * Signing in to the developer space: the password (throttled), then the code when the user has
 * two-factor sign-in, then a new session. Each step answers what comes next; the web edge only
 * shows it (pages, cookie, flash).
 */

/** The second step of a two-factor sign-in lasts this long after the right password. */
const SECOND_STEP_MS = 5 * 60_000;

/** Signed in: a new session, the one before deleted; the account's first sandbox key when this sign-in created it. */
export type SignedIn = { step: 'signed-in'; session: Session; firstKey: string | undefined };

export type PasswordStep =
  | SignedIn
  /** The right password of a user with two-factor sign-in: a new session that becomes theirs with a code, within 5 minutes. */
  | { step: 'second-factor'; pending: Session }
  /** The right password, but the email is not confirmed yet: a new confirmation link is issued. */
  | { step: 'unconfirmed'; confirmToken: string }
  /**
   * `wrong-password`: a wrong password or an unknown email (the same answer). `throttled`: too many
   * failures for this email or this address, or too many hashes for this address, whatever the password.
   */
  | { step: 'refused'; reason: 'wrong-password' | 'throttled' };

export type CodeStep =
  | SignedIn
  /** `expired`: no second step pending (or past its 5 minutes). `replayed`: a TOTP code used before. `throttled`: too many codes. */
  | { step: 'refused'; reason: 'expired' | 'wrong-code' | 'replayed' | 'throttled' };

type SignInDeps = Pick<Deps, 'db' | 'config'>;

/** The first step: the password of `input.email`, tried from the session `current` (replaced by the next step's). */
export async function signInWithPassword(
  deps: SignInDeps,
  current: Pick<Session, 'id'>,
  input: { email: string; password: string; address: string },
): Promise<PasswordStep> {
  const { db, config } = deps;
  const result = await checkPassword(db, input);
  switch (result.kind) {
    case 'throttled':
      return { step: 'refused', reason: 'throttled' };
    case 'refused':
      return { step: 'refused', reason: 'wrong-password' };
    case 'unconfirmed':
      return { step: 'unconfirmed', confirmToken: result.confirmToken };
    case 'second_factor': {
      // Not signed in yet: a new session that may become the user's with a code, within 5 minutes.
      await deleteSession(db, current.id);
      const pending = await createSession(db, config.dashboard.sessionTtlMs, undefined, { userId: result.userId, ms: SECOND_STEP_MS });
      return { step: 'second-factor', pending };
    }
    case 'signed_in':
      return signedIn(deps, current, result.userId, result.accountId);
  }
}

/** The second step: a code (TOTP or recovery) from the session waiting for it. */
export async function signInWithCode(
  deps: SignInDeps,
  current: Pick<Session, 'id' | 'pendingUserId'>,
  input: { code: string; address: string },
): Promise<CodeStep> {
  if (!current.pendingUserId) return { step: 'refused', reason: 'expired' };
  const result = await checkCode(deps.db, deps.config.secretKey, { userId: current.pendingUserId, ...input });
  switch (result.kind) {
    case 'throttled':
    case 'replayed':
      return { step: 'refused', reason: result.kind };
    case 'wrong':
      return { step: 'refused', reason: 'wrong-code' };
    case 'signed_in':
      return signedIn(deps, current, result.userId, result.accountId);
  }
}

/** A new session at sign-in: an id known before (fixation) is worth nothing after. */
async function signedIn(deps: SignInDeps, current: Pick<Session, 'id'>, userId: string, accountId: string): Promise<SignedIn> {
  const { db, config } = deps;
  await deleteSession(db, current.id);
  const session = await createSession(db, config.dashboard.sessionTtlMs, userId);
  return { step: 'signed-in', session, firstKey: await firstSandboxKey(db, accountId, config.secretKey) };
}

type PasswordCheck =
  | { kind: 'signed_in'; userId: string; accountId: string }
  | { kind: 'refused' }
  | { kind: 'throttled' }
  | { kind: 'unconfirmed'; confirmToken: string }
  | { kind: 'second_factor'; userId: string };

/** The password of an email, throttled before it is checked (the same answer for an unknown email). */
async function checkPassword(db: Db, input: { email: string; password: string; address: string }): Promise<PasswordCheck> {
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
  if (await twoFactorEnabled(db, user.id)) return { kind: 'second_factor', userId: user.id };
  await recordAudit(db, signInActor(user.id, email, input.address), {
    accountId: user.account_id,
    action: 'signin.succeeded',
    target: { type: 'user', id: user.id },
  });
  return { kind: 'signed_in', userId: user.id, accountId: user.account_id };
}

/**
 * The second step of a two-factor sign-in: a TOTP code not used before, or a recovery code (used up).
 * Each try spends one of the user's and the client address's code attempts (reserved before the
 * check, given back by the right code), so the 10⁶ codes cannot be tried in bulk.
 */
async function checkCode(
  db: Db,
  key: Buffer,
  input: { userId: string; code: string; address: string },
): Promise<{ kind: 'signed_in'; userId: string; accountId: string } | { kind: 'wrong' | 'replayed' | 'throttled' }> {
  const attempt = budgets.code(input.address, input.userId);
  const reservation = await reserve(db, attempt);
  if (!reservation) return { kind: 'throttled' };
  return db.transaction(async (trx) => {
    const user = await trx('developer_users').where({ id: input.userId }).first('id', 'account_id', 'email');
    if (!user) return { kind: 'wrong' as const };
    const factor = await checkSecondFactor(trx, key, user.id, input.code);
    if (factor === 'wrong' || factor === 'replayed') return { kind: factor };
    await reservation.release();
    const target = { type: 'user' as const, id: user.id };
    if (factor === 'recovery') await recordAudit(trx, actorOf(user, input.address), { accountId: user.account_id, action: '2fa.recovery_code_used', target });
    await recordAudit(trx, actorOf(user, input.address), {
      accountId: user.account_id,
      action: 'signin.succeeded',
      target,
      details: { second_factor: factor },
    });
    return { kind: 'signed_in' as const, userId: user.id, accountId: user.account_id as string };
  });
}
