import type { Db, Tx } from '../../db/knex.js';
import { InsufficientBalance } from '../errors.js';
import { inFreeQuota, priceOf, priceTable, type PriceUnit } from './prices.js';

/**
 * Where money moves. Every change of a balance is one append-only ledger row written in the same
 * transaction as the balance update; the balance can never go below zero (a CHECK constraint and
 * a conditional UPDATE).
 */

export interface Charge {
  /** What was taken from the balance (0 inside the free quota or for test keys). */
  amountCents: number;
  balanceCents: number;
  ledgerEntryId: number | null;
}

type Runner = Db | Tx;

async function appendEntry(
  db: Runner,
  accountId: string,
  kind: 'topup' | 'debit' | 'refund' | 'closing_refund',
  amountCents: number,
  balanceAfter: number,
  unit: string | null,
  reference: string | null,
): Promise<number> {
  const [row] = await db('ledger_entries')
    .insert({ account_id: accountId, kind, amount_cents: amountCents, balance_after_cents: balanceAfter, unit, reference })
    .returning('id');
  return Number(row.id);
}

/** Month of the free quota, in Europe/Paris like every calendar rule of the service. */
export const PARIS_MONTH = "to_char(now() AT TIME ZONE 'Europe/Paris', 'YYYY-MM')";

/** The account's balance as it stands (not the authenticated key's cached copy). */
export async function currentBalance(db: Db, accountId: string): Promise<number> {
  const account = await db('accounts').where({ id: accountId }).first('balance_cents');
  return Number(account?.balance_cents ?? 0);
}

/**
 * Debits one paid unit from a live account, before the work it pays for. Run it inside the
 * transaction that records that work when there is one: both commit or neither does.
 * Throws 402 insufficient_balance (and changes nothing) when the balance is too low. `amountCents`
 * replaces the unit's price when the work is priced by its size (an own PDF's sheets).
 */
export async function debit(trx: Tx, accountId: string, unit: PriceUnit, reference: string | null = null, amountCents?: number): Promise<Charge> {
  let amount = amountCents ?? priceOf(unit);
  if (inFreeQuota(unit)) {
    const { rows } = await trx.raw(
      `INSERT INTO usage_counters AS u (account_id, period, count) VALUES (?, ${PARIS_MONTH}, 1)
       ON CONFLICT (account_id, period) DO UPDATE SET count = u.count + 1 RETURNING count`,
      [accountId],
    );
    if (Number(rows[0].count) <= priceTable.freeMonthlyQuota.calls) amount = 0;
  }
  if (amount === 0) {
    const account = await trx('accounts').where({ id: accountId }).first('balance_cents');
    return { amountCents: 0, balanceCents: Number(account.balance_cents), ledgerEntryId: null };
  }
  const updated = await trx('accounts')
    .where({ id: accountId })
    .andWhere('balance_cents', '>=', amount)
    .decrement('balance_cents', amount)
    .returning('balance_cents');
  if (updated.length === 0) {
    const account = await trx('accounts').where({ id: accountId }).first('balance_cents');
    throw new InsufficientBalance(amount, Number(account?.balance_cents ?? 0));
  }
  const balance = Number(updated[0].balance_cents);
  const entryId = await appendEntry(trx, accountId, 'debit', -amount, balance, unit, reference);
  return { amountCents: amount, balanceCents: balance, ledgerEntryId: entryId };
}

/** Gives back a debit whose work did not happen (failed partner call, canceled mailing). */
export async function refund(db: Db | Tx, accountId: string, charge: Charge, unit: PriceUnit, reference: string | null = null): Promise<number> {
  return db.transaction(async (trx) => {
    if (charge.amountCents === 0) {
      if (inFreeQuota(unit)) {
        await trx.raw(`UPDATE usage_counters SET count = count - 1 WHERE account_id = ? AND period = ${PARIS_MONTH} AND count > 0`, [accountId]);
      }
      const account = await trx('accounts').where({ id: accountId }).first('balance_cents');
      return Number(account.balance_cents);
    }
    const [row] = await trx('accounts').where({ id: accountId }).increment('balance_cents', charge.amountCents).returning('balance_cents');
    const balance = Number(row.balance_cents);
    await appendEntry(trx, accountId, 'refund', charge.amountCents, balance, unit, reference);
    return balance;
  });
}

export async function topUp(db: Db, accountId: string, amountCents: number, reference: string | null = null): Promise<number> {
  return db.transaction(async (trx) => (await creditWithin(trx, accountId, amountCents, reference)).balanceCents);
}

/** A top-up's credit inside the caller's transaction (a paid Stripe top-up commits with its record). */
export async function creditWithin(
  trx: Tx,
  accountId: string,
  amountCents: number,
  reference: string | null,
): Promise<{ balanceCents: number; ledgerEntryId: number }> {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new Error('a top-up is a positive whole number of cents');
  const [row] = await trx('accounts').where({ id: accountId }).increment('balance_cents', amountCents).returning('balance_cents');
  if (!row) throw new Error(`no account ${accountId}`);
  const balance = Number(row.balance_cents);
  const ledgerEntryId = await appendEntry(trx, accountId, 'topup', amountCents, balance, null, reference);
  return { balanceCents: balance, ledgerEntryId };
}

/**
 * A closed account's settlement (docs/billing.md, "Closing an account"), inside the closing's
 * transaction: the prepaid credit left leaves the balance as one `closing_refund` entry (negative,
 * the balance to zero), so sum(entries) = balance still holds; the amount is owed back to the
 * customer. Nothing is written when the balance is already zero.
 */
export async function settleClosedAccount(trx: Tx, accountId: string, reference: string): Promise<{ refundCents: number; ledgerEntryId: number | null }> {
  const account = await trx('accounts').where({ id: accountId }).forUpdate().first('balance_cents');
  const refundCents = Number(account?.balance_cents ?? 0);
  if (refundCents === 0) return { refundCents: 0, ledgerEntryId: null };
  await trx('accounts').where({ id: accountId }).update({ balance_cents: 0 });
  const ledgerEntryId = await appendEntry(trx, accountId, 'closing_refund', -refundCents, 0, null, reference);
  return { refundCents, ledgerEntryId };
}

/** The account's balance after each of its last `limit` ledger entries, oldest first: the home page's chart. */
export async function balanceHistory(db: Db, accountId: string, limit = 200): Promise<{ at: Date; balanceCents: number }[]> {
  const rows = await db('ledger_entries').where({ account_id: accountId }).orderBy('id', 'desc').limit(limit).select('created_at', 'balance_after_cents');
  return rows
    .reverse()
    .map((r: { created_at: Date; balance_after_cents: string | number }) => ({ at: r.created_at, balanceCents: Number(r.balance_after_cents) }));
}
