import type { Db, Tx } from '../../db/knex.js';
import type { Config } from '../../lib/config.js';
import { logger } from '../../lib/logger.js';
import { recordAudit, SYSTEM, type Actor } from './audit.js';
import { revokeAccountKeys } from './keys.js';
import { newToken, ownerEmails, eraseAccountDevelopers, TOKEN_FORMAT, tokenHash, checkPasswordOf } from '../developers/users.js';
import { eraseAccountInvitations } from '../developers/team.js';
import { enqueueEmail, type OutgoingEmail } from '../developers/outbox.js';
import { eraseAccountEndpoints, resumeAccountWebhooks, stopAccountWebhooks } from '../webhooks/endpoints.js';
import { settleClosedAccount } from '../billing/ledger.js';
import { eraseBillingContact } from '../billing/profiles.js';
import { eraseRequestContacts } from '../requests/service-requests.js';
import { countMailingsInFlight } from '../mailings/listing.js';
import { eraseAccountMailings } from '../privacy/erasure.js';

/**
 * Closing an account (issue 53 item 2; docs/developer-space.md, "Closing the account"):
 *
 * 1. asked by an owner who gives their password again (`requestClosing`): a single-use link, valid
 *    48 hours, emailed to the owners;
 * 2. confirmed by that link (`confirmClosing`): from that moment the account is `closing`, its keys
 *    are refused (403 `account_suspended`, learnt by every API process on `auth_changed`), its
 *    webhooks are stopped and no new mailing can be made; the mailings already paid go on to
 *    their end. The grace period (ACCOUNT_CLOSING_GRACE, 30 days) starts;
 * 3. during it an owner (or an operator) may cancel (`cancelClosing`): keys and webhooks work again;
 * 4. at its end, once no mailing is in flight, the `account-closing` Schedule closes the account
 *    (`closeAccount`): the prepaid credit left is settled (a `closing_refund` ledger entry, owed back
 *    to the customer), every key revoked, the personal data the law does not require us to keep
 *    erased (the developers' emails, password hashes, second factors, sessions and links; the
 *    webhook endpoints' addresses; the billing email; every mailing's recipient, letter and PDFs,
 *    through domain/privacy/erasure.ts); invoices and the ledger are kept (Code de commerce
 *    L123-22, ten years).
 *
 * An operator's closing (`admin account close`, at a customer's written request) starts at step 2.
 */

/** A confirmation link is valid this long. */
export const CLOSING_LINK_LIFETIME_MS = 48 * 3_600_000;

export interface AccountSummary {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  closure: 'closing' | 'closed' | null;
  liveEnabled: boolean;
  balanceCents: number;
  createdAt: Date;
}

/** The account's own row as its export shows it. */
export async function accountSummary(db: Db, accountId: string): Promise<AccountSummary | undefined> {
  const row = await db('accounts').where({ id: accountId }).first('id', 'name', 'status', 'closure', 'live_enabled', 'balance_cents', 'created_at');
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    closure: row.closure,
    liveEnabled: row.live_enabled,
    balanceCents: Number(row.balance_cents),
    createdAt: row.created_at,
  };
}

export interface ClosingState {
  id: string;
  requestedAt: Date;
  confirmedAt: Date | null;
  /** The end of the grace period, once confirmed. */
  closesAt: Date | null;
  closedAt: Date | null;
  refundDueCents: number | null;
}

const stateOf = (row: Record<string, unknown>): ClosingState => ({
  id: row.id as string,
  requestedAt: row.requested_at as Date,
  confirmedAt: row.confirmed_at as Date | null,
  closesAt: row.closes_at as Date | null,
  closedAt: row.closed_at as Date | null,
  refundDueCents: row.refund_due_cents === null ? null : Number(row.refund_due_cents),
});

/** The closing in progress (asked or in its grace period), or else the one that closed the account; undefined when none. */
export async function closingState(db: Db, accountId: string): Promise<ClosingState | undefined> {
  const row = await db('account_closings').where({ account_id: accountId }).whereNull('canceled_at').orderBy('requested_at', 'desc').first();
  return row ? stateOf(row) : undefined;
}

/** One closing change at a time per account, until the transaction ends. */
const lockAccount = (trx: Tx, accountId: string) => trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`closing:${accountId}`]);

/** The account enters its grace period: keys refused, webhooks stopped (within the confirmation's transaction). */
async function startGrace(trx: Tx, closingId: string, accountId: string, graceMs: number, actor: Actor): Promise<{ closesAt: Date }> {
  const [row] = await trx('account_closings')
    .where({ id: closingId })
    .update({ confirmed_at: trx.fn.now(), closes_at: trx.raw(`now() + make_interval(secs => ?)`, [graceMs / 1000]) })
    .returning('closes_at');
  // The trigger on accounts announces it on auth_changed: every API process forgets the account's keys at commit.
  await trx('accounts').where({ id: accountId }).update({ closure: 'closing' });
  const stopped = await stopAccountWebhooks(trx, accountId);
  await recordAudit(trx, actor, {
    accountId,
    action: 'account.closing_confirmed',
    target: { type: 'account', id: accountId },
    details: { closesAt: row.closes_at, webhookEndpointsStopped: stopped.endpoints, deliveriesCanceled: stopped.deliveries },
  });
  return { closesAt: row.closes_at as Date };
}

export type ClosingRequest =
  | { kind: 'requested'; token: string; to: string[] }
  | { kind: 'refused' }
  | { kind: 'throttled' }
  /** Already confirmed (in its grace period) or closed. */
  | { kind: 'already_closing' };

/**
 * An owner asks to close the account, giving their password again: a confirmation link (48 h,
 * single use) for the owners' addresses. A new request voids the link of an earlier unconfirmed one.
 */
export async function requestClosing(
  db: Db,
  input: { accountId: string; userId: string; password: string; address: string; actor: Actor },
): Promise<ClosingRequest> {
  const checked = await checkPasswordOf(db, input.userId, input.password, input.address);
  if (checked !== 'ok') return { kind: checked };
  const token = newToken();
  const done = await db.transaction(async (trx) => {
    await lockAccount(trx, input.accountId);
    const account = await trx('accounts').where({ id: input.accountId }).first('closure');
    if (!account || account.closure !== null) return false;
    await trx('account_closings')
      .where({ account_id: input.accountId })
      .whereNull('confirmed_at')
      .whereNull('canceled_at')
      .update({ canceled_at: trx.fn.now() });
    await trx('account_closings').insert({
      account_id: input.accountId,
      requested_by: input.userId,
      requested_by_label: input.actor.kind === 'developer' ? input.actor.email : null,
      token_hash: tokenHash(token),
      token_expires_at: new Date(Date.now() + CLOSING_LINK_LIFETIME_MS),
    });
    await recordAudit(trx, input.actor, { accountId: input.accountId, action: 'account.closing_requested', target: { type: 'account', id: input.accountId } });
    return true;
  });
  if (!done) return { kind: 'already_closing' };
  return { kind: 'requested', token, to: await ownerEmails(db, input.accountId) };
}

/**
 * The emailed link opened: the closing is confirmed and the grace period starts. Only one of
 * several concurrent openings confirms (the row's update is conditional); the others answer
 * `invalid`, like a used or expired link.
 */
export async function confirmClosing(
  db: Db,
  config: Pick<Config, 'accountClosingGraceMs'>,
  token: string,
  address: string,
): Promise<{ kind: 'confirmed'; accountId: string; closesAt: Date; to: string[] } | { kind: 'invalid' }> {
  if (!TOKEN_FORMAT.test(token)) return { kind: 'invalid' };
  const result = await db.transaction(async (trx) => {
    const pending = await trx('account_closings')
      .where({ token_hash: tokenHash(token) })
      .first('id', 'account_id', 'requested_by', 'requested_by_label');
    if (!pending) return undefined;
    await lockAccount(trx, pending.account_id);
    const claimed = await trx('account_closings')
      .where({ id: pending.id })
      .whereNull('confirmed_at')
      .whereNull('canceled_at')
      .where('token_expires_at', '>', trx.fn.now())
      .update({ token_hash: null })
      .returning('id');
    if (claimed.length === 0) return undefined;
    const actor: Actor = pending.requested_by
      ? { kind: 'developer', userId: pending.requested_by, email: pending.requested_by_label ?? '', address }
      : { kind: 'system' };
    const { closesAt } = await startGrace(trx, pending.id, pending.account_id, config.accountClosingGraceMs, actor);
    return { accountId: pending.account_id as string, closesAt };
  });
  if (!result) return { kind: 'invalid' };
  return { kind: 'confirmed', ...result, to: await ownerEmails(db, result.accountId) };
}

/**
 * An operator's closing (`admin account close`, on the customer's written request): confirmed at
 * once, with the configured grace period, or none (`now`: the account is closed as soon as no
 * mailing is in flight). An account already closing keeps its closing (`now` brings its end forward).
 */
export async function closeByOperator(
  db: Db,
  config: Pick<Config, 'accountClosingGraceMs'>,
  accountId: string,
  options: { now: boolean; actor: Actor },
): Promise<{ closingId: string; closesAt: Date } | { kind: 'closed' }> {
  return db.transaction(async (trx) => {
    await lockAccount(trx, accountId);
    const account = await trx('accounts').where({ id: accountId }).first('closure');
    if (account?.closure === 'closed') return { kind: 'closed' as const };
    const open = await trx('account_closings').where({ account_id: accountId }).whereNull('canceled_at').whereNull('closed_at').first('id', 'confirmed_at');
    if (open?.confirmed_at) {
      if (options.now) await trx('account_closings').where({ id: open.id }).update({ closes_at: trx.fn.now() });
      const row = await trx('account_closings').where({ id: open.id }).first('closes_at');
      return { closingId: open.id as string, closesAt: row.closes_at as Date };
    }
    if (open) await trx('account_closings').where({ id: open.id }).update({ canceled_at: trx.fn.now(), token_hash: null });
    const [row] = await trx('account_closings')
      .insert({ account_id: accountId, requested_by_label: options.actor.kind === 'operator' ? options.actor.name : null })
      .returning('id');
    await recordAudit(trx, options.actor, { accountId, action: 'account.closing_requested', target: { type: 'account', id: accountId } });
    const { closesAt } = await startGrace(trx, row.id, accountId, options.now ? 0 : config.accountClosingGraceMs, options.actor);
    return { closingId: row.id as string, closesAt };
  });
}

/**
 * Cancels the account's closing in progress (asked, or in its grace period): its keys work again
 * (announced on `auth_changed`), the endpoints the closing disabled are enabled again (the
 * deliveries it ended stay ended). `none` when there is nothing to cancel (never asked, or closed).
 */
export async function cancelClosing(db: Db, accountId: string, actor: Actor): Promise<'canceled' | 'none'> {
  return db.transaction(async (trx) => {
    await lockAccount(trx, accountId);
    const [open] = await trx('account_closings')
      .where({ account_id: accountId })
      .whereNull('canceled_at')
      .whereNull('closed_at')
      .update({ canceled_at: trx.fn.now(), token_hash: null })
      .returning(['id', 'confirmed_at']);
    if (!open) return 'none';
    if (open.confirmed_at) {
      await trx('accounts').where({ id: accountId, closure: 'closing' }).update({ closure: null });
      await resumeAccountWebhooks(trx, accountId);
    }
    await recordAudit(trx, actor, { accountId, action: 'account.closing_canceled', target: { type: 'account', id: accountId } });
    return 'canceled';
  });
}

/** What a closing erased, by kind (kept on the closing's row). */
export interface ErasedCounts {
  developers: number;
  invitations: number;
  webhookEndpoints: number;
  billingContacts: number;
  requestContacts: number;
  keysRevoked: number;
  mailings: number;
}

export type CloseOutcome =
  | { kind: 'closed'; accountId: string; refundDueCents: number; ledgerEntryId: number | null; erased: ErasedCounts }
  /** Mailings are still on their way: the account is closed at a later run, once they end. */
  | { kind: 'waiting'; accountId: string; mailingsInFlight: number }
  /** Nothing to close: no confirmed closing whose grace period is over (canceled, closed already, not due). */
  | { kind: 'none'; accountId: string };

/** The emails telling the owners, in French. */
function closedEmail(to: string, refundCents: number): OutgoingEmail {
  const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(refundCents / 100);
  return {
    to,
    subject: 'Votre compte est clôturé',
    text:
      `Bonjour,\n\nLe délai de grâce est passé : votre compte est clôturé. Ses clés d’API sont révoquées et les données personnelles que la loi ne nous oblige pas à garder sont effacées.\n\n` +
      (refundCents > 0 ? `Le crédit prépayé restant, ${euros}, vous sera remboursé.\n\n` : 'Il ne restait pas de crédit prépayé à rembourser.\n\n') +
      `Les factures et les écritures du compte sont conservées dix ans (article L123-22 du Code de commerce).\n`,
  };
}

/**
 * Closes the account at the end of its grace period (or at once when `force`, i.e. `admin account
 * close --now`), if no mailing is in flight: the balance settled, every key revoked, the personal
 * data erased, the owners told by email, all in one transaction. Run twice or at once from two
 * places, it closes once (the closing's row is claimed under the account's lock).
 */
export async function closeAccount(db: Db, secretKey: Buffer, accountId: string, options: { force?: boolean } = {}): Promise<CloseOutcome> {
  const inFlight = await countMailingsInFlight(db, accountId);
  return db.transaction(async (trx) => {
    await lockAccount(trx, accountId);
    const due = trx('account_closings')
      .where({ account_id: accountId })
      .whereNotNull('confirmed_at')
      .whereNull('canceled_at')
      .whereNull('closed_at')
      .first('id');
    if (!options.force) due.where('closes_at', '<=', trx.fn.now());
    const closing = await due;
    if (!closing) return { kind: 'none' as const, accountId };
    if (inFlight > 0) return { kind: 'waiting' as const, accountId, mailingsInFlight: inFlight };
    const owners = await ownerEmails(trx, accountId);
    const { refundCents, ledgerEntryId } = await settleClosedAccount(trx, accountId, `closing:${closing.id}`);
    const erased: ErasedCounts = {
      keysRevoked: await revokeAccountKeys(trx, accountId, SYSTEM),
      // Each mailing in a savepoint of this transaction (the retention module's erasure): a cancel cannot come between.
      mailings: (await eraseAccountMailings(trx, accountId, { via: 'account_closing' })).erased,
      webhookEndpoints: await eraseAccountEndpoints(trx, accountId),
      billingContacts: await eraseBillingContact(trx, accountId),
      requestContacts: await eraseRequestContacts(trx, accountId),
      invitations: await eraseAccountInvitations(trx, accountId),
      developers: await eraseAccountDevelopers(trx, accountId),
    };
    await trx('accounts').where({ id: accountId }).update({ closure: 'closed', name: 'Compte clôturé' });
    await trx('account_closings')
      .where({ id: closing.id })
      .update({ closed_at: trx.fn.now(), refund_due_cents: refundCents, refund_ledger_entry_id: ledgerEntryId, erased: JSON.stringify(erased) });
    await recordAudit(trx, SYSTEM, {
      accountId,
      action: 'account.closed',
      target: { type: 'account', id: accountId },
      details: { refundDueCents: refundCents, ledgerEntryId, erased },
    });
    for (const to of owners) await enqueueEmail(trx, secretKey, closedEmail(to, refundCents));
    return { kind: 'closed' as const, accountId, refundDueCents: refundCents, ledgerEntryId, erased };
  });
}

/**
 * Run by the `account-closing` Schedule: closes every account whose grace period is over and whose
 * mailings have all ended; the others wait for a later run.
 */
export async function closeDueAccounts(db: Db, secretKey: Buffer, limit = 50): Promise<{ closed: string[]; waiting: string[] }> {
  const due = await db('account_closings')
    .whereNotNull('confirmed_at')
    .whereNull('canceled_at')
    .whereNull('closed_at')
    .where('closes_at', '<=', db.fn.now())
    .orderBy('closes_at')
    .limit(limit)
    .select('account_id');
  const closed: string[] = [];
  const waiting: string[] = [];
  for (const { account_id: accountId } of due as { account_id: string }[]) {
    const outcome = await closeAccount(db, secretKey, accountId);
    if (outcome.kind === 'closed') closed.push(accountId);
    if (outcome.kind === 'waiting') waiting.push(accountId);
  }
  if (closed.length || waiting.length) logger.info({ closed: closed.length, waiting: waiting.length }, 'account closing: due accounts');
  return { closed, waiting };
}
