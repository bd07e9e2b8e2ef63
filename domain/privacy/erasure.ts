import type { Db } from '../../db/knex.js';
import { logger } from '../../lib/logger.js';
import { recordAudit, type Actor } from '../access/audit.js';
import { Conflict, notFound } from '../errors.js';
import { eraseMailingRow, lockMailingForErasure, mailingsPastRetention, unerasedFinalMailingsOfAccount, unerasedMailingsNotFinal } from '../mailings/erase.js';
import { ERASED } from '../mailings/mailing.js';
import { releaseOwnPdf } from '../mailings/own-pdf-store.js';
import { deleteReleasedDocuments, queueDocumentDeletions } from '../documents/deletions.js';
import { isFinalMailing } from '../mailings/states.js';
import { eraseMailingFromEvents } from '../webhooks/events.js';

/**
 * Erasure of a final mailing's personal data (issue 53; docs/retention.md, "Erasure"): on request
 * (POST /v1/mailings/{id}/erase, the developer space's mailing page, `npm run admin -- mailing
 * erase`), past its account's retention period (the `mailing-retention` Schedule), and for all of
 * an account's mailings (account closing). One transaction per mailing, the mailing locked first:
 * two erasures at once, or an erasure and the schedule, give one result, recorded once.
 *
 * Erased: the recipient's lines and email, the letter's text (and a free or PDF letter's title), the
 * layout printed from them, the customer's own PDF bytes once no mailing that is not erased prints
 * them, the proofs' PDFs, and the recipient and title in its webhook events' payloads. Kept: the
 * amount (the ledger balances), the status history, the tracking number, the reference, the sender
 * (the customer's own address, erased with its account), the own PDF's and each proof's SHA-256.
 */

/** Which path asked for the erasure, recorded in the audit log. */
export type ErasureVia = 'api' | 'developer_space' | 'admin' | 'retention' | 'account_closing';

export interface ErasureOptions {
  /** Only a mailing of this account (NotFound otherwise). */
  accountId?: string;
  /** Only a test (true) or live (false) mailing: an API key sees its own environment's mailings only. */
  test?: boolean;
  /** Who asked (the audit log's actor); absent: the service itself. */
  actor?: Actor;
  via?: ErasureVia;
}

export interface MailingErasure {
  mailingId: string;
  accountId: string;
  /** A test mailing (true) or a live one. */
  test: boolean;
  /** When it was erased (by this call, or by an earlier one). */
  erasedAt: string;
  /** Erased before this call: nothing was done. */
  alreadyErased: boolean;
  /** Proof PDFs erased by this call. */
  proofPdfs: number;
  /** Whether this call erased the bytes of its own PDF (false: none, or another mailing still prints them). */
  ownPdfBytes: boolean;
  /** Webhook events whose payload was rewritten. */
  webhookEvents: number;
}

/** Conflict `mailing_not_final`: a mailing is erased only once final (its letter may still be printed or posted). */
export function mailingNotFinal(mailingId: string, status: string): Conflict {
  return new Conflict(
    `Mailing ${mailingId} is ${status}: its personal data can be erased once it is final (delivered, returned, canceled…).`,
    { status },
    'mailing_not_final',
  );
}

/**
 * Erases one final mailing's personal data; a mailing already erased answers as it is (idempotent).
 * NotFound when there is no such mailing (for `accountId` and `test` when given), Conflict
 * `mailing_not_final` while it is not final.
 */
export async function eraseMailingPersonalData(db: Db, mailingId: string, options: ErasureOptions = {}): Promise<MailingErasure> {
  const { erasure, releasedObjects } = await eraseInTransaction(db, mailingId, options);
  // The objects it released (DOCUMENT_STORE=s3), once no row names them; left queued while the store is down.
  if (releasedObjects.length) await deleteReleasedDocuments(db, releasedObjects);
  return erasure;
}

async function eraseInTransaction(db: Db, mailingId: string, options: ErasureOptions): Promise<{ erasure: MailingErasure; releasedObjects: string[] }> {
  return db.transaction(async (trx) => {
    const mailing = await lockMailingForErasure(trx, mailingId);
    if (
      !mailing ||
      (options.accountId !== undefined && mailing.account_id !== options.accountId) ||
      (options.test !== undefined && mailing.test !== options.test)
    )
      throw notFound(`No mailing ${mailingId}.`);
    const outcome = { mailingId, accountId: mailing.account_id, test: mailing.test };
    if (mailing.erased_at)
      return {
        erasure: { ...outcome, erasedAt: mailing.erased_at.toISOString(), alreadyErased: true, proofPdfs: 0, ownPdfBytes: false, webhookEvents: 0 },
        releasedObjects: [],
      };
    if (!isFinalMailing({ ...mailing, lastStep: mailing.last_step })) throw mailingNotFinal(mailingId, mailing.status);
    const { erasedAt, title, proofs, releasedObjects } = await eraseMailingRow(trx, mailing);
    const ownPdf = await releaseOwnPdf(trx, mailingId);
    if (ownPdf.objectKey) releasedObjects.push(ownPdf.objectKey);
    await queueDocumentDeletions(trx, releasedObjects);
    const webhookEvents = await eraseMailingFromEvents(trx, mailingId, { recipient: [ERASED], title, erasedAt: erasedAt.toISOString() });
    await recordAudit(trx, options.actor, {
      accountId: mailing.account_id,
      action: 'mailing.erased',
      target: { type: 'mailing', id: mailingId },
      details: { via: options.via ?? 'retention', test: mailing.test },
    });
    return {
      erasure: { ...outcome, erasedAt: erasedAt.toISOString(), alreadyErased: false, proofPdfs: proofs, ownPdfBytes: ownPdf.erased, webhookEvents },
      releasedObjects,
    };
  });
}

/** Mailings read per page by `eraseAccountMailings`. */
const ACCOUNT_ERASURE_PAGE = 500;

/**
 * Erases every final mailing of the account (account closing), one transaction each, reading them
 * a page at a time: however many the account holds, no transaction outlives one mailing, and an
 * interrupted run leaves every mailing erased or not, for the next run to go on. Those not final
 * yet are left as they are (their letters may still be printed or posted) and named in `notFinal`.
 * `erased`: how many this call erased (a mailing another caller erased first is not counted).
 */
export async function eraseAccountMailings(
  db: Db,
  accountId: string,
  options: Omit<ErasureOptions, 'accountId'> & { onPage?: () => void } = {},
): Promise<{ erased: number; notFinal: string[] }> {
  const { onPage, ...erasure } = options;
  let erased = 0;
  for (let after: { id: string; createdAt: Date } | undefined; ;) {
    const page = await unerasedFinalMailingsOfAccount(db, accountId, { ...(after && { after }), limit: ACCOUNT_ERASURE_PAGE });
    for (const { id } of page) {
      const done = await eraseMailingPersonalData(db, id, { ...erasure, accountId, via: erasure.via ?? 'account_closing' });
      if (!done.alreadyErased) erased++;
    }
    // A long erasure says it is alive (the closing activity's heartbeat).
    onPage?.();
    if (page.length < ACCOUNT_ERASURE_PAGE) return { erased, notFinal: await unerasedMailingsNotFinal(db, accountId) };
    after = page[page.length - 1];
  }
}

/**
 * One pass of the retention Schedule: final mailings whose account's retention period is over at
 * `now`, at most `limit` of them (the schedule runs again for the rest). Returns how many were
 * erased and whether more may remain.
 */
export async function erasePastRetention(db: Db, options: { now?: Date; limit?: number } = {}): Promise<{ erased: number; failed: number; more: boolean }> {
  const limit = options.limit ?? 500;
  const ids = await mailingsPastRetention(db, { now: options.now ?? new Date(), limit });
  let erased = 0;
  let failed = 0;
  for (const id of ids) {
    // One mailing whose erasure fails (a lock held too long, a row the statements refuse) is left
    // for the next run, logged: it does not keep the others past their term.
    try {
      const done = await eraseMailingPersonalData(db, id, { via: 'retention' });
      if (!done.alreadyErased) erased++;
    } catch (error) {
      failed++;
      logger.error({ shipmentId: id, err: error }, 'retention: the erasure of a mailing past its term failed; it is tried again at the next run');
    }
  }
  // Objects an earlier erasure released while the store was down.
  await deleteReleasedDocuments(db);
  return { erased, failed, more: ids.length === limit };
}
