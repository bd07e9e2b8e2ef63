import type { Db } from '../../db/knex.js';

/** Failed sign-ins allowed per account (email) and per client address in the window. */
export const SIGNIN_FAILURES_PER_ACCOUNT = 5;
export const SIGNIN_FAILURES_PER_ADDRESS = 20;
export const SIGNIN_WINDOW_MINUTES = 15;

const subjects = (email: string, address: string): [string, string] => [`email:${email.toLowerCase()}`, `ip:${address}`];

/**
 * False while the email or the address has too many recent failures. Unknown emails are counted
 * like known ones, so the throttle says nothing about which emails have an account. Shared by every
 * process through Postgres.
 */
export async function signInAllowed(db: Db, email: string, address: string): Promise<boolean> {
  const [byEmail, byAddress] = subjects(email, address);
  const rows: { subject: string; count: string }[] = await db('developer_signin_failures')
    .whereIn('subject', [byEmail, byAddress])
    .where('at', '>', db.raw(`now() - interval '${SIGNIN_WINDOW_MINUTES} minutes'`))
    .groupBy('subject')
    .select('subject', db.raw('count(*) AS count'));
  const count = (subject: string): number => Number(rows.find((row) => row.subject === subject)?.count ?? 0);
  return count(byEmail) < SIGNIN_FAILURES_PER_ACCOUNT && count(byAddress) < SIGNIN_FAILURES_PER_ADDRESS;
}

export async function recordSignInFailure(db: Db, email: string, address: string): Promise<void> {
  const both = subjects(email, address);
  await db('developer_signin_failures')
    .whereIn('subject', both)
    .where('at', '<', db.raw(`now() - interval '${SIGNIN_WINDOW_MINUTES} minutes'`))
    .delete();
  await db('developer_signin_failures').insert(both.map((subject) => ({ subject })));
}

/** A successful sign-in or password reset clears the account's count (not the address's). */
export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db('developer_signin_failures')
    .where({ subject: `email:${email.toLowerCase()}` })
    .delete();
}
