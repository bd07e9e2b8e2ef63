import type { Db, Tx } from '../../db/knex.js';
import type { Config } from '../../lib/config.js';
import { logger } from '../../lib/logger.js';
import { recordAudit, SYSTEM, type Actor } from './audit.js';
import { accountClosure, markAccountClosed, setAccountClosing } from './accounts.js';
import { revokeAccountKeys } from './keys.js';
import { newToken, ownerEmails, eraseAccountDevelopers, TOKEN_FORMAT, tokenHash, checkPasswordOf } from '../developers/users.js';
import { eraseAccountInvitations } from '../developers/team.js';
import { eraseAccountBatchChecks } from '../developers/batch-checks.js';
import { enqueueEmail, type OutgoingEmail } from '../developers/outbox.js';
import { eraseAccountEndpoints, resumeAccountWebhooks, stopAccountWebhooks } from '../webhooks/endpoints.js';
import { settleClosedAccount } from '../billing/ledger.js';
import { eraseBillingContact } from '../billing/profiles.js';
import { eraseRequestContacts } from '../requests/service-requests.js';
import { eraseSenderContacts } from '../developers/sender-identity.js';
import { countMailingsInFlight } from '../mailings/listing.js';
import { countMailingsErasedSince } from '../mailings/erase.js';
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
 *    L123-22, ten years). Short transactions, one after the other, each idempotent: the refund
 *    and the keys first (`close_started_at`: no cancel from then on), then each mailing, then the
 *    rest and `closed_at`; a close interrupted is resumed by the next run.
 *
 * An operator's closing (`admin account close`, at a customer's written request) starts at step 2.
 */

/** A confirmation link is valid this long. */
export const CLOSING_LINK_LIFETIME_MS = 48 * 3_600_000;

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
  await setAccountClosing(trx, accountId, true);
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
    if ((await accountClosure(trx, input.accountId)) !== null) return false;
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
    if ((await accountClosure(trx, accountId)) === 'closed') return { kind: 'closed' as const };
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
      // Once the close has begun (balance refunded, keys revoked) there is no going back.
      .whereNull('close_started_at')
      .update({ canceled_at: trx.fn.now(), token_hash: null })
      .returning(['id', 'confirmed_at']);
    if (!open) return 'none';
    if (open.confirmed_at) {
      await setAccountClosing(trx, accountId, false);
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
  /** The sender identity's person (name, email) at each provider. */
  senderContacts: number;
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

/** A close begun by `beginClose`: its row, with what the first step did. */
interface StartedClose {
  id: string;
  startedAt: Date;
  refundDueCents: number;
  ledgerEntryId: number | null;
  keysRevoked: number;
}

const startedCloseOf = (row: Record<string, unknown>): StartedClose => ({
  id: row.id as string,
  startedAt: row.close_started_at as Date,
  refundDueCents: Number(row.refund_due_cents),
  ledgerEntryId: row.refund_ledger_entry_id === null ? null : Number(row.refund_ledger_entry_id),
  keysRevoked: Number((row.erased as { keysRevoked?: number } | null)?.keysRevoked ?? 0),
});

/**
 * The close's first step, in one short transaction under the account's lock: the balance settled
 * (its `closing_refund` entry) and every key revoked, recorded on the closing's row with
 * `close_started_at`. A close begun already (by a concurrent closer, or a run that was
 * interrupted) is answered as it is, so this step happens once.
 */
async function beginClose(
  db: Db,
  accountId: string,
  options: { force?: boolean },
): Promise<{ kind: 'started'; close: StartedClose } | Exclude<CloseOutcome, { kind: 'closed' }>> {
  const inFlight = await countMailingsInFlight(db, accountId);
  return db.transaction(async (trx) => {
    await lockAccount(trx, accountId);
    const due = trx('account_closings')
      .where({ account_id: accountId })
      .whereNotNull('confirmed_at')
      .whereNull('canceled_at')
      .whereNull('closed_at')
      .first('id', 'close_started_at', 'refund_due_cents', 'refund_ledger_entry_id', 'erased');
    if (!options.force) due.where('closes_at', '<=', trx.fn.now());
    const closing = await due;
    if (!closing) return { kind: 'none' as const, accountId };
    if (closing.close_started_at) return { kind: 'started' as const, close: startedCloseOf(closing) };
    if (inFlight > 0) return { kind: 'waiting' as const, accountId, mailingsInFlight: inFlight };
    const { refundCents, ledgerEntryId } = await settleClosedAccount(trx, accountId, `closing:${closing.id}`);
    const keysRevoked = await revokeAccountKeys(trx, accountId, SYSTEM);
    const [row] = await trx('account_closings')
      .where({ id: closing.id })
      .update({
        close_started_at: trx.fn.now(),
        refund_due_cents: refundCents,
        refund_ledger_entry_id: ledgerEntryId,
        erased: JSON.stringify({ keysRevoked }),
      })
      .returning(['id', 'close_started_at', 'refund_due_cents', 'refund_ledger_entry_id', 'erased']);
    return { kind: 'started' as const, close: startedCloseOf(row) };
  });
}

/**
 * The close's last step, in one transaction under the account's lock, once every mailing is
 * erased: the developers' and the other personal data erased (a few rows per account), the owners
 * emailed (read before their addresses go, queued in the transaction that erases them), the account
 * and its closing marked closed, audit-logged. A close another caller ended first is answered as
 * that one recorded it.
 */
async function finishClose(db: Db, secretKey: Buffer, accountId: string, close: StartedClose): Promise<CloseOutcome> {
  return db.transaction(async (trx) => {
    await lockAccount(trx, accountId);
    const row = await trx('account_closings').where({ id: close.id }).first('closed_at', 'erased');
    const closed = (erased: ErasedCounts) =>
      ({ kind: 'closed', accountId, refundDueCents: close.refundDueCents, ledgerEntryId: close.ledgerEntryId, erased }) as const;
    if (row.closed_at) return closed(row.erased as ErasedCounts);
    const owners = await ownerEmails(trx, accountId);
    const erased: ErasedCounts = {
      keysRevoked: close.keysRevoked,
      mailings: await countMailingsErasedSince(trx, accountId, close.startedAt),
      webhookEndpoints: await eraseAccountEndpoints(trx, accountId),
      billingContacts: await eraseBillingContact(trx, accountId),
      requestContacts: await eraseRequestContacts(trx, accountId),
      senderContacts: await eraseSenderContacts(trx, accountId),
      invitations: await eraseAccountInvitations(trx, accountId),
      developers: await eraseAccountDevelopers(trx, accountId),
    };
    // A CSV check's form (its recipients) lives 24 hours at most; not counted.
    await eraseAccountBatchChecks(trx, accountId);
    await markAccountClosed(trx, accountId);
    await trx('account_closings')
      .where({ id: close.id })
      .update({ closed_at: trx.fn.now(), erased: JSON.stringify(erased) });
    await recordAudit(trx, SYSTEM, {
      accountId,
      action: 'account.closed',
      target: { type: 'account', id: accountId },
      details: { refundDueCents: close.refundDueCents, ledgerEntryId: close.ledgerEntryId, erased },
    });
    for (const to of owners) await enqueueEmail(trx, secretKey, closedEmail(to, close.refundDueCents));
    return closed(erased);
  });
}

/**
 * Closes the account at the end of its grace period (or at once when `force`, i.e. `admin account
 * close --now`), if no mailing is in flight, as a sequence of short transactions, each one
 * idempotent: the balance settled and every key revoked (`beginClose`, once); every mailing's
 * personal data erased, one transaction per mailing (domain/privacy/erasure.ts, which locks each
 * mailing); then the rest of the personal data erased, the owners told by email and the account
 * marked closed (`finishClose`, once). Interrupted anywhere (a worker killed), the next call goes
 * on from where it stopped; run at once from several places, it closes once: one refund, one
 * `account.closed` entry, one email per owner.
 */
export async function closeAccount(
  db: Db,
  secretKey: Buffer,
  accountId: string,
  options: { force?: boolean; onProgress?: () => void } = {},
): Promise<CloseOutcome> {
  const begun = await beginClose(db, accountId, options);
  if (begun.kind !== 'started') return begun;
  await eraseAccountMailings(db, accountId, { via: 'account_closing', ...(options.onProgress && { onPage: options.onProgress }) });
  return finishClose(db, secretKey, accountId, begun.close);
}

/**
 * Run by the `account-closing` Schedule: closes every account whose grace period is over and whose
 * mailings have all ended; the others wait for a later run. `onProgress` is called after each page
 * of erasures and each account (the activity's heartbeat: an account of many mailings takes long).
 */
export async function closeDueAccounts(
  db: Db,
  secretKey: Buffer,
  options: { limit?: number; onProgress?: () => void } = {},
): Promise<{ closed: string[]; waiting: string[] }> {
  const limit = options.limit ?? 50;
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
    const outcome = await closeAccount(db, secretKey, accountId, options.onProgress ? { onProgress: options.onProgress } : {});
    options.onProgress?.();
    if (outcome.kind === 'closed') closed.push(accountId);
    if (outcome.kind === 'waiting') waiting.push(accountId);
  }
  if (closed.length || waiting.length) logger.info({ closed: closed.length, waiting: waiting.length }, 'account closing: due accounts');
  return { closed, waiting };
}
