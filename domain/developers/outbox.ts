import type { Db } from '../../db/knex.js';
import { decrypt, encrypt } from '../../lib/crypto.js';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
}

const CONTEXT = 'developer-outbox';
/** A new email is its own process's to send for this long, then any process's (that one may have died). */
const OWN_SECONDS = 30;
/** A claimed email is another process's for this long (it may be sending it); then it is retried. */
const CLAIM_SECONDS = 300;
/** Attempts before an email is given up (logged as an error): 30 s, 1, 2, 4… min apart, about 8 hours in all. */
export const OUTBOX_MAX_ATTEMPTS = 10;

/**
 * Queues an email, sealed (its link carries a token). With `when` false the same statement runs and
 * inserts nothing: a request that has no email to send does the same work as one that has.
 */
export async function enqueueEmail(db: Db, key: Buffer, email: OutgoingEmail, when = true): Promise<string | undefined> {
  const { rows } = await db.raw<{ rows: { id: string }[] }>(
    `INSERT INTO developer_outbox (sealed, next_attempt_at) SELECT ?, now() + make_interval(secs => ?) WHERE ? RETURNING id`,
    [encrypt(JSON.stringify(email), key, CONTEXT), OWN_SECONDS, when],
  );
  return rows[0] && String(rows[0].id);
}

export interface ClaimedEmail {
  id: string;
  /** This one included. */
  attempts: number;
  /** Undefined when it cannot be opened (sealed under another SECRET_KEY). */
  email: OutgoingEmail | undefined;
}

/**
 * Emails claimed for this process: those of `ids` (queued here), or else those due (at most
 * `limit`, oldest first); never one another process holds.
 */
export async function claimEmails(db: Db, key: Buffer, limit: number, ids?: string[]): Promise<ClaimedEmail[]> {
  const { rows } = await db.raw<{ rows: { id: string; attempts: number; sealed: string }[] }>(
    `/* outbox sender */ UPDATE developer_outbox SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ?)
     WHERE id IN (SELECT id FROM developer_outbox WHERE ${ids ? 'id = ANY(?::bigint[]) AND attempts = 0' : 'next_attempt_at <= now()'}
                  ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
     RETURNING id, attempts, sealed`,
    [CLAIM_SECONDS, ...(ids ? [ids] : []), limit],
  );
  return rows.map((row) => {
    let email: OutgoingEmail | undefined;
    try {
      email = JSON.parse(decrypt(row.sealed, key, CONTEXT)) as OutgoingEmail;
    } catch {
      email = undefined; // sealed with another SECRET_KEY: the caller logs and drops it
    }
    return { id: String(row.id), attempts: row.attempts, email };
  });
}

/** Sent (or given up after logging): the row goes, with its sealed link. */
export async function dropEmail(db: Db, id: string): Promise<void> {
  await db.raw(`/* outbox sender */ DELETE FROM developer_outbox WHERE id = ?`, [id]);
}

/** A failed attempt: retried later, sooner first. */
export async function emailFailed(db: Db, id: string, attempts: number, error: string): Promise<void> {
  await db.raw(`/* outbox sender */ UPDATE developer_outbox SET last_error = ?, next_attempt_at = now() + make_interval(secs => ?) WHERE id = ?`, [
    error.slice(0, 1000),
    30 * 2 ** (attempts - 1),
    id,
  ]);
}
