import type { Db } from '../../db/knex.js';

/** Failed sign-ins allowed per account (email) and per client address in the window. */
export const SIGNIN_FAILURES_PER_ACCOUNT = 5;
export const SIGNIN_FAILURES_PER_ADDRESS = 20;
export const SIGNIN_WINDOW_MINUTES = 15;
/** Emails of the developer space (confirmation, "already an account", reset) per recipient and per client address. */
export const EMAILS_PER_RECIPIENT = 3;
export const EMAILS_PER_ADDRESS = 10;
export const EMAIL_WINDOW_MINUTES = 60;
/** Password hashes (sign-up, sign-in, new password: 128 MiB and ~¼ s of scrypt each) per client address. */
export const HASHES_PER_ADDRESS = 40;
export const HASH_WINDOW_MINUTES = 15;
/** Second-factor codes (sign-in's second step, enabling, disabling) per user and per client address. */
export const CODE_FAILURES_PER_USER = 5;
export const CODE_FAILURES_PER_ADDRESS = 20;
export const CODE_WINDOW_MINUTES = 15;
/** Previews of a letter to send (a PDF rendered by a browser each): per account. */
export const PREVIEWS_PER_ACCOUNT = 60;
export const PREVIEW_WINDOW_MINUTES = 15;

/** At most `limit` uses of `subject` in a window of `minutes` opened by its first use. */
export interface Budget {
  subject: string;
  limit: number;
  minutes: number;
}

/** Reservations taken together: all of them, or none. */
export interface Reservation {
  /** Gives a use back (the attempt did not count, e.g. the right password). */
  release(subjects?: string[]): Promise<void>;
}

const email = (value: string): string => value.trim().toLowerCase();

export const budgets = {
  signIn: (address: string, account: string): Budget[] => [
    { subject: `signin:email:${email(account)}`, limit: SIGNIN_FAILURES_PER_ACCOUNT, minutes: SIGNIN_WINDOW_MINUTES },
    { subject: `signin:ip:${address}`, limit: SIGNIN_FAILURES_PER_ADDRESS, minutes: SIGNIN_WINDOW_MINUTES },
  ],
  hash: (address: string): Budget => ({ subject: `hash:ip:${address}`, limit: HASHES_PER_ADDRESS, minutes: HASH_WINDOW_MINUTES }),
  /** 10⁶ codes, 3 valid at a time: 5 tries per 15 minutes make a guess about one chance in 10⁵ per window. */
  code: (address: string, userId: string): Budget[] => [
    { subject: `code:user:${userId}`, limit: CODE_FAILURES_PER_USER, minutes: CODE_WINDOW_MINUTES },
    { subject: `code:ip:${address}`, limit: CODE_FAILURES_PER_ADDRESS, minutes: CODE_WINDOW_MINUTES },
  ],
  preview: (accountId: string): Budget[] => [{ subject: `preview:account:${accountId}`, limit: PREVIEWS_PER_ACCOUNT, minutes: PREVIEW_WINDOW_MINUTES }],
  email: (address: string, recipient: string): Budget[] => [
    { subject: `email:to:${email(recipient)}`, limit: EMAILS_PER_RECIPIENT, minutes: EMAIL_WINDOW_MINUTES },
    { subject: `email:ip:${address}`, limit: EMAILS_PER_ADDRESS, minutes: EMAIL_WINDOW_MINUTES },
  ],
};

/**
 * Takes one use of each budget, or none when one is spent. Each use is taken by one statement that
 * counts and checks at once (the row is locked by ON CONFLICT … DO UPDATE), before any work: however
 * many requests arrive together, at most `limit` get through. Shared by every process through Postgres.
 */
export async function reserve(db: Db, wanted: Budget[]): Promise<Reservation | undefined> {
  // The window's end as Postgres writes it (microseconds): it tells this window from a later one.
  const taken: { subject: string; windowEndsAt: string }[] = [];
  const release = async (subjects?: string[]): Promise<void> => {
    for (const { subject, windowEndsAt } of taken.filter((t) => !subjects || subjects.includes(t.subject)))
      await db.raw(`UPDATE developer_throttle SET used = used - 1 WHERE subject = ? AND window_ends_at = ?::timestamptz AND used > 0`, [subject, windowEndsAt]);
  };
  for (const budget of wanted) {
    const { rows } = await db.raw<{ rows: { window_ends_at: string }[] }>(
      `INSERT INTO developer_throttle AS t (subject, window_ends_at, used) VALUES (?, now() + make_interval(mins => ?), 1)
       ON CONFLICT (subject) DO UPDATE SET
         used = CASE WHEN t.window_ends_at <= now() THEN 1 ELSE t.used + 1 END,
         window_ends_at = CASE WHEN t.window_ends_at <= now() THEN excluded.window_ends_at ELSE t.window_ends_at END
       WHERE t.window_ends_at <= now() OR t.used < ?
       RETURNING window_ends_at::text`,
      [budget.subject, budget.minutes, budget.limit],
    );
    const row = rows[0];
    if (!row) {
      await release();
      return undefined;
    }
    taken.push({ subject: budget.subject, windowEndsAt: row.window_ends_at });
  }
  return { release };
}

/**
 * Deletes spent windows, a thousand at a time; run now and then by each API process, never by a
 * request (which would then do more work for a new subject, e.g. an unknown email, than for a known one).
 */
export async function purgeSpentBudgets(db: Db): Promise<void> {
  // Marked: a process's timer runs it between requests, and tests that compare a request's statements leave it out.
  await db.raw(
    `/* budget purge */ DELETE FROM developer_throttle WHERE subject IN (SELECT subject FROM developer_throttle WHERE window_ends_at < now() LIMIT 1000)`,
  );
}

/** A password reset clears the account's failed sign-ins (not the address's). */
export async function clearSignInFailures(db: Db, account: string): Promise<void> {
  await db.raw(`DELETE FROM developer_throttle WHERE subject = ?`, [`signin:email:${email(account)}`]);
}
