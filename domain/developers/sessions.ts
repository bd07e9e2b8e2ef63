import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Role } from './roles.js';

export interface Session {
  /** The cookie's value (only its SHA-256 is stored). */
  id: string;
  csrfToken: string;
  /** The signed-in member, with their role in the account (read at each request: a role change applies at once). */
  user: { id: string; accountId: string; email: string; role: Role } | undefined;
  flash: string | null;
  /** Between the right password and the right code of a two-factor sign-in: the user, until the step expires. */
  pendingUserId: string | undefined;
}

const idHash = (id: string): Buffer => Buffer.from(sha256Hex(id), 'hex');
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * A new session (anonymous, or signed in as `userId`, or waiting `pending.ms` for the second factor
 * of `pending.userId`), with its own CSRF token.
 */
export async function createSession(db: Db, ttlMs: number, userId?: string, pending?: { userId: string; ms: number }): Promise<Session> {
  const id = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  // Expired sessions go as new ones come, a few at a time.
  await db.raw(`DELETE FROM developer_sessions WHERE id_hash IN (SELECT id_hash FROM developer_sessions WHERE expires_at < now() LIMIT 100)`);
  await db('developer_sessions').insert({
    id_hash: idHash(id),
    user_id: userId ?? null,
    csrf_token: csrfToken,
    expires_at: new Date(Date.now() + ttlMs),
    pending_user_id: pending?.userId ?? null,
    pending_until: pending ? new Date(Date.now() + pending.ms) : null,
  });
  const user = userId ? await db('developer_users').where({ id: userId }).first('id', 'account_id', 'email', 'role') : undefined;
  return {
    id,
    csrfToken,
    user: user && { id: user.id, accountId: user.account_id, email: user.email, role: user.role },
    flash: null,
    pendingUserId: pending?.userId,
  };
}

export async function findSession(db: Db, id: string): Promise<Session | undefined> {
  if (!SESSION_ID.test(id)) return undefined;
  const row = await db('developer_sessions as s')
    .leftJoin('developer_users as u', 'u.id', 's.user_id')
    .where('s.id_hash', idHash(id))
    .where('s.expires_at', '>', db.fn.now())
    .first(
      's.csrf_token',
      's.flash',
      's.user_id',
      'u.account_id',
      'u.email',
      'u.role',
      db.raw('CASE WHEN s.pending_until > now() THEN s.pending_user_id END AS pending_user_id'),
    );
  if (!row) return undefined;
  return {
    id,
    csrfToken: row.csrf_token,
    flash: row.flash,
    user: row.user_id ? { id: row.user_id, accountId: row.account_id, email: row.email, role: row.role } : undefined,
    pendingUserId: row.pending_user_id ?? undefined,
  };
}

export async function setSessionFlash(db: Db, id: string, flash: string | null): Promise<void> {
  await db('developer_sessions')
    .where({ id_hash: idHash(id) })
    .update({ flash });
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db('developer_sessions')
    .where({ id_hash: idHash(id) })
    .delete();
}

/** Signs a user out everywhere (after a password reset). */
export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db('developer_sessions').where({ user_id: userId }).delete();
}

/** Signs a user out everywhere but in `keepId` (after a password change made in that session). */
export async function deleteOtherSessions(db: Db, userId: string, keepId: string): Promise<void> {
  await db('developer_sessions')
    .where({ user_id: userId })
    .whereNot({ id_hash: idHash(keepId) })
    .delete();
}
