import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import { sha256Hex } from '../../lib/crypto.js';

export interface Session {
  /** The cookie's value (only its SHA-256 is stored). */
  id: string;
  csrfToken: string;
  user: { id: string; accountId: string; email: string } | undefined;
  flash: string | null;
}

const idHash = (id: string): Buffer => Buffer.from(sha256Hex(id), 'hex');
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** A new session (anonymous, or signed in as `userId`), with its own CSRF token. */
export async function createSession(db: Db, ttlMs: number, userId?: string): Promise<Session> {
  const id = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  // Expired sessions go as new ones come, a few at a time.
  await db.raw(`DELETE FROM developer_sessions WHERE id_hash IN (SELECT id_hash FROM developer_sessions WHERE expires_at < now() LIMIT 100)`);
  await db('developer_sessions').insert({
    id_hash: idHash(id),
    user_id: userId ?? null,
    csrf_token: csrfToken,
    expires_at: new Date(Date.now() + ttlMs),
  });
  const user = userId ? await db('developer_users').where({ id: userId }).first('id', 'account_id', 'email') : undefined;
  return { id, csrfToken, user: user && { id: user.id, accountId: user.account_id, email: user.email }, flash: null };
}

export async function findSession(db: Db, id: string): Promise<Session | undefined> {
  if (!SESSION_ID.test(id)) return undefined;
  const row = await db('developer_sessions as s')
    .leftJoin('developer_users as u', 'u.id', 's.user_id')
    .where('s.id_hash', idHash(id))
    .where('s.expires_at', '>', db.fn.now())
    .first('s.csrf_token', 's.flash', 's.user_id', 'u.account_id', 'u.email');
  if (!row) return undefined;
  return { id, csrfToken: row.csrf_token, flash: row.flash, user: row.user_id ? { id: row.user_id, accountId: row.account_id, email: row.email } : undefined };
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
