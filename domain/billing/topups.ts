import Joi from 'joi';
import type { Db } from '../../db/knex.js';
import { openToken, sealToken } from '../../lib/crypto.js';
import { isUuid } from '../../lib/text.js';
import type { Deps } from '../deps.js';
import type { CheckoutEventType, TopUpOutcome } from './checkout.js';
import { invalidRequest, serviceUnavailable, upstreamError } from '../errors.js';
import { creditWithin, PARIS_MONTH } from './ledger.js';
import { priceTable, vatOf, VAT_RATE } from './prices.js';

/**
 * Top-ups paid by card or mobile wallet through Stripe Checkout. A top-up is recorded here first,
 * with the credit it buys (euro cents excluding VAT) and the VAT charged on top; the Checkout session
 * carries its id. Stripe's events reach the top-up's workflow (workflows/topup.ts), which credits
 * the ledger once and records the invoice. Nothing here trusts an amount from Stripe.
 */

/** The one statement of the top-up limits: 10 € to 2,000 € excluding VAT, in steps of 5 €. */
export const topUpAmountSchema = Joi.number()
  .integer()
  .min(1000)
  .max(200_000)
  .multiple(500)
  .required()
  .label('amountCents')
  .description('Credit bought, in euro cents excluding VAT');

/** The limits as the form shows them, read from the schema. */
export const TOPUP_LIMITS = (() => {
  const rules = (topUpAmountSchema.describe().rules ?? []) as { name: string; args?: { limit?: number; base?: number } }[];
  const arg = (name: string): number => {
    const rule = rules.find((r) => r.name === name);
    const value = rule?.args?.limit ?? rule?.args?.base;
    if (typeof value !== 'number') throw new Error(`topUpAmountSchema has no ${name} rule`);
    return value;
  };
  return { minCents: arg('min'), maxCents: arg('max'), stepCents: arg('multiple') };
})();

export interface TopUpPrice {
  amountCents: number;
  vatRate: number;
  vatCents: number;
  totalCents: number;
}

/** What the card pays for a credit: the credit plus French VAT (docs/billing.md). */
export function topUpPrice(amountCents: number): TopUpPrice {
  const vatCents = vatOf(amountCents);
  return { amountCents, vatRate: VAT_RATE, vatCents, totalCents: amountCents + vatCents };
}

export function checkTopUpAmount(amountCents: unknown): number {
  const { value, error } = topUpAmountSchema.validate(amountCents);
  if (error) {
    const { minCents, maxCents, stepCents } = TOPUP_LIMITS;
    throw invalidRequest(`A top-up is ${minCents / 100} € to ${maxCents / 100} € excluding VAT, in steps of ${stepCents / 100} €.`, { limits: TOPUP_LIMITS });
  }
  return value as number;
}

export interface TopUpRecord {
  id: string;
  accountId: string;
  amountCents: number;
  vatCents: number;
  totalCents: number;
  status: 'pending' | TopUpOutcome;
  sessionId: string | null;
  invoiceId: string | null;
  invoiceNumber: string | null;
  invoiceUrl: string | null;
  invoicePdfUrl: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

interface TopUpRow {
  id: string;
  account_id: string;
  amount_cents: number;
  vat_cents: number;
  total_cents: number;
  status: TopUpRecord['status'];
  stripe_session_id: string | null;
  checkout_url: string | null;
  invoice_id: string | null;
  invoice_number: string | null;
  invoice_url: string | null;
  invoice_pdf_url: string | null;
  created_at: Date;
  settled_at: Date | null;
}

const toRecord = (row: TopUpRow): TopUpRecord => ({
  id: row.id,
  accountId: row.account_id,
  amountCents: row.amount_cents,
  vatCents: row.vat_cents,
  totalCents: row.total_cents,
  status: row.status,
  sessionId: row.stripe_session_id,
  invoiceId: row.invoice_id,
  invoiceNumber: row.invoice_number,
  invoiceUrl: row.invoice_url,
  invoicePdfUrl: row.invoice_pdf_url,
  createdAt: row.created_at,
  settledAt: row.settled_at,
});

export async function findTopUp(db: Db, id: string): Promise<TopUpRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db('topups').where({ id }).first();
  return row ? toRecord(row) : undefined;
}

export async function findTopUpBySession(db: Db, sessionId: string): Promise<TopUpRecord | undefined> {
  const row = await db('topups').where({ stripe_session_id: sessionId }).first();
  return row ? toRecord(row) : undefined;
}

/**
 * "Recharger": records the top-up, then has its Checkout session created (a short workflow: the
 * Stripe call is an activity). Answers where to send the browser.
 */
export async function startTopUp(
  deps: Deps,
  input: { accountId: string; amountCents: unknown; email: string; successUrl: string; cancelUrl: string },
): Promise<{ topUpId: string; sessionId: string; url: string }> {
  if (deps.config.stripe.mode === 'disabled') throw serviceUnavailable('Payments are not configured on this server (STRIPE_SECRET_KEY).');
  const price = topUpPrice(checkTopUpAmount(input.amountCents));
  const [row] = await deps
    .db('topups')
    .insert({ account_id: input.accountId, amount_cents: price.amountCents, vat_cents: price.vatCents, total_cents: price.totalCents })
    .returning('id');
  const topUpId = row.id as string;
  const session = await deps.workflows.billing.run(
    'checkoutSession',
    [{ topUpId, customerEmail: input.email, successUrl: input.successUrl, cancelUrl: input.cancelUrl }],
    { idPrefix: 'checkout', timeout: '45s', failure: () => upstreamError('Stripe did not create the payment page; nothing was charged. Please retry.') },
  );
  return { topUpId, ...session };
}

/** Records the Checkout session of a top-up once (a retried creation keeps the first): the one recorded. */
export async function recordCheckoutSession(db: Db, topUpId: string, sessionId: string, url: string): Promise<{ sessionId: string; url: string }> {
  const updated = await db('topups').where({ id: topUpId }).whereNull('stripe_session_id').update({ stripe_session_id: sessionId, checkout_url: url });
  if (updated) return { sessionId, url };
  const row = await db('topups').where({ id: topUpId }).first('stripe_session_id', 'checkout_url');
  if (!row) throw new Error(`no top-up ${topUpId}`);
  return { sessionId: row.stripe_session_id, url: row.checkout_url };
}

/** A Stripe event about a Checkout session, its signature checked by the webhook. */
export interface CheckoutNotice {
  eventId: string;
  type: string;
  sessionId: string;
  /** client_reference_id: our top-up id. */
  clientReferenceId: string | null;
  paymentStatus: string;
}

const CHECKOUT_EVENTS: ReadonlySet<string> = new Set<CheckoutEventType>([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

export const isCheckoutEvent = (type: string): type is CheckoutEventType => CHECKOUT_EVENTS.has(type);

/**
 * Passes a verified Stripe event on to its top-up's workflow. `ignored`: not an event we act on,
 * or a session that is none of our top-ups (another product on the same Stripe account).
 */
export async function acceptCheckoutEvent(deps: Deps, notice: CheckoutNotice): Promise<'accepted' | 'ignored'> {
  if (!isCheckoutEvent(notice.type)) return 'ignored';
  const topUp = notice.clientReferenceId ? await findTopUp(deps.db, notice.clientReferenceId) : await findTopUpBySession(deps.db, notice.sessionId);
  if (!topUp) return 'ignored';
  if (topUp.sessionId === null) await recordCheckoutSession(deps.db, topUp.id, notice.sessionId, '');
  else if (topUp.sessionId !== notice.sessionId) return 'ignored';
  await deps.workflows.billing.signalTopUp(
    { topUpId: topUp.id, sessionId: notice.sessionId },
    { eventId: notice.eventId, type: notice.type, paymentStatus: notice.paymentStatus },
  );
  return 'accepted';
}

/** Where a top-up stands (the workflow's first question: a later run may find it settled). */
export async function topUpState(db: Db, topUpId: string): Promise<{ status: TopUpRecord['status']; invoiced: boolean }> {
  const row = await db('topups').where({ id: topUpId }).first('status', 'invoice_id');
  if (!row) throw new Error(`no top-up ${topUpId}`);
  return { status: row.status, invoiced: row.invoice_id !== null };
}

export const topUpReference = (topUpId: string): string => `topup:${topUpId}`;

/**
 * Credits a paid top-up, once: the top-up turns `paid` and its ledger row is written in one
 * transaction, only if it was not paid yet (a retried activity or a later run credits nothing).
 * A top-up marked failed or expired is still credited when Stripe reports the payment after all.
 */
export async function creditTopUp(db: Db, topUpId: string): Promise<{ credited: boolean; amountCents: number; balanceCents: number | null }> {
  return db.transaction(async (trx) => {
    const [row] = await trx('topups')
      .where({ id: topUpId })
      .whereNot({ status: 'paid' })
      .update({ status: 'paid', settled_at: trx.fn.now() })
      .returning(['account_id', 'amount_cents']);
    if (!row) {
      const existing = await trx('topups').where({ id: topUpId }).first('amount_cents');
      if (!existing) throw new Error(`no top-up ${topUpId}`);
      return { credited: false, amountCents: existing.amount_cents as number, balanceCents: null };
    }
    const credit = await creditWithin(trx, row.account_id, row.amount_cents, topUpReference(topUpId));
    await trx('topups').where({ id: topUpId }).update({ ledger_entry_id: credit.ledgerEntryId });
    return { credited: true, amountCents: row.amount_cents as number, balanceCents: credit.balanceCents };
  });
}

/** A top-up that ended without payment (only while still pending: a paid one stays paid). */
export async function closeTopUp(db: Db, topUpId: string, status: 'failed' | 'expired'): Promise<void> {
  await db('topups').where({ id: topUpId, status: 'pending' }).update({ status, settled_at: db.fn.now() });
}

export interface InvoiceLinks {
  invoiceId: string;
  number: string | null;
  hostedUrl: string | null;
  pdfUrl: string | null;
}

/** The invoice Stripe made for a paid top-up (the first recorded stays). */
export async function recordInvoice(db: Db, topUpId: string, invoice: InvoiceLinks): Promise<void> {
  await db('topups').where({ id: topUpId }).whereNull('invoice_id').update({
    invoice_id: invoice.invoiceId,
    invoice_number: invoice.number,
    invoice_url: invoice.hostedUrl,
    invoice_pdf_url: invoice.pdfUrl,
  });
}

/** The account's top-ups, most recent first (the invoices list of the developer space). */
export async function listTopUps(db: Db, accountId: string, limit = 50): Promise<TopUpRecord[]> {
  const rows = await db('topups').where({ account_id: accountId }).whereNotNull('stripe_session_id').orderBy('created_at', 'desc').limit(limit);
  return rows.map(toRecord);
}

/** One page of the account's top-ups (every state) in id order after `afterId`: the account's export. */
export async function exportTopUpsPage(db: Db, accountId: string, afterId: string | undefined, limit: number): Promise<TopUpRecord[]> {
  const query = db('topups').where({ account_id: accountId }).orderBy('id').limit(limit);
  if (afterId) query.andWhere('id', '>', afterId);
  return (await query).map(toRecord);
}

export interface BalanceView {
  balanceCents: number;
  freeQuota: { used: number; calls: number; period: string };
}

/** The balance, and the month's free quota used (Europe/Paris months, like the debits). */
export async function balanceView(db: Db, accountId: string): Promise<BalanceView> {
  const account = await db('accounts').where({ id: accountId }).first('balance_cents');
  const { rows } = await db.raw(
    `SELECT m.period, (SELECT count FROM usage_counters WHERE account_id = ? AND period = m.period) AS count FROM (SELECT ${PARIS_MONTH} AS period) m`,
    [accountId],
  );
  const calls = priceTable.freeMonthlyQuota.calls;
  return { balanceCents: Number(account?.balance_cents ?? 0), freeQuota: { used: Math.min(calls, Number(rows[0].count ?? 0)), calls, period: rows[0].period } };
}

export interface LedgerLine {
  id: number;
  kind: 'topup' | 'debit' | 'refund' | 'closing_refund';
  amountCents: number;
  balanceAfterCents: number;
  unit: string | null;
  reference: string | null;
  createdAt: Date;
}

/**
 * One page of the account's ledger, most recent first. The cursor is the last row's id, sealed for
 * this account's ledger (opaque, unforgeable; a foreign or broken one is 400 invalid_cursor).
 */
export async function ledgerPage(
  db: Db,
  key: Buffer,
  accountId: string,
  options: { limit: number; cursor?: string },
): Promise<{ lines: LedgerLine[]; nextCursor: string | null }> {
  const scope = `ledger:${accountId}`;
  const query = db('ledger_entries').where({ account_id: accountId });
  if (options.cursor) {
    const after = openToken<number>(options.cursor, key, scope);
    if (!Number.isSafeInteger(after)) throw invalidRequest('This page link is not valid any more.', undefined, 'invalid_cursor');
    query.andWhere('id', '<', after!);
  }
  const rows = await query.orderBy('id', 'desc').limit(options.limit + 1);
  const lines: LedgerLine[] = rows.slice(0, options.limit).map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    amountCents: Number(r.amount_cents),
    balanceAfterCents: Number(r.balance_after_cents),
    unit: r.unit,
    reference: r.reference,
    createdAt: r.created_at,
  }));
  const last = lines[lines.length - 1];
  return { lines, nextCursor: rows.length > options.limit && last ? sealToken(last.id, key, scope) : null };
}
