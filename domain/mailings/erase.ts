import type { Db, Tx } from '../../db/knex.js';
import { ERASED, type MailingDocument } from './mailing.js';
import type { Channel, MailingStatus, Mode } from './states.js';
import type { RequestWarning } from '../catalogue/compatibility.js';

/**
 * The statements of a mailing's erasure on `shipments` and `shipment_proofs` (their SQL lives in
 * domain/mailings/; what an erasure is, and the other tables it touches, is domain/privacy/erasure.ts).
 */

/** A mailing as its erasure reads it, locked. */
export interface ErasableMailing {
  id: string;
  account_id: string;
  test: boolean;
  mode: Mode;
  status: MailingStatus;
  step: number;
  last_step: number;
  channel: Channel;
  title: string;
  document: MailingDocument;
  warnings: RequestWarning[] | null;
  erased_at: Date | null;
}

/**
 * The mailing, locked until the transaction ends (FOR UPDATE: two erasures of one mailing, or an
 * erasure and a proof being stored, take their turns; see the trigger of 20261205000200_retention).
 */
export async function lockMailingForErasure(trx: Tx, mailingId: string): Promise<ErasableMailing | undefined> {
  return (await trx('shipments')
    .where('id', mailingId)
    .forUpdate()
    .first('id', 'account_id', 'test', 'mode', 'status', 'step', 'last_step', 'channel', 'title', 'document', 'warnings', 'erased_at')) as
    ErasableMailing | undefined;
}

/** What an erased mailing's letter keeps: its kind, a catalogue letter's title and slug, an own PDF's hash, pages and sheets. */
export function erasedDocument(document: MailingDocument): MailingDocument {
  const { kind, letter, sha256, pages, sheets, addressPlacement } = document;
  return {
    kind,
    title: kind === 'catalogue' ? document.title : ERASED,
    text: '',
    ...(letter && { letter }),
    ...(sha256 !== undefined && { sha256 }),
    ...(pages !== undefined && { pages }),
    ...(sheets !== undefined && { sheets }),
    ...(addressPlacement !== undefined && { addressPlacement }),
  };
}

/** The warnings kept: an address warning's message may quote the address, so it goes. */
function erasedWarnings(warnings: RequestWarning[] | null): RequestWarning[] {
  return (warnings ?? []).map((w) => (w.code.startsWith('address_') ? { ...w, message: ERASED } : w));
}

/**
 * Erases the mailing's personal data in its row (recipient, its email, the letter's text and a
 * free or PDF letter's title, the layout printed from them) and its proofs' PDFs (their SHA-256
 * stays). Amount, statuses, events, tracking number, reference, sender and hashes stay. Returns the
 * time recorded in `erased_at`.
 */
export async function eraseMailingRow(
  trx: Tx,
  mailing: ErasableMailing,
): Promise<{ erasedAt: Date; title: string; proofs: number; releasedObjects: string[] }> {
  const document = erasedDocument(mailing.document);
  // A catalogue letter's title is the catalogue's: it stays; a free or PDF letter's is the customer's.
  const title = mailing.document.kind === 'catalogue' ? mailing.title : ERASED;
  const [row] = (await trx('shipments')
    .where('id', mailing.id)
    .update({
      recipient: JSON.stringify({ name: ERASED, lines: [], postcode: '', city: '', country: 'FR' }),
      recipient_email: null,
      document: JSON.stringify(document),
      title,
      layout: null,
      warnings: JSON.stringify(erasedWarnings(mailing.warnings)),
      erased_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    })
    .returning(['erased_at'])) as { erased_at: Date }[];
  // Bytes in the row or in the document store alike; the objects released are deleted after (domain/documents/deletions.ts).
  const { rows: erasedProofs } = (await trx.raw(
    `UPDATE shipment_proofs p SET pdf = NULL, object_key = NULL, object_size = NULL
       FROM shipment_proofs prior
      WHERE p.shipment_id = ? AND prior.shipment_id = p.shipment_id AND prior.kind = p.kind AND (p.pdf IS NOT NULL OR p.object_key IS NOT NULL)
      RETURNING prior.object_key`,
    [mailing.id],
  )) as { rows: { object_key: string | null }[] };
  const releasedObjects = erasedProofs.flatMap((proof) => (proof.object_key ? [proof.object_key] : []));
  return { erasedAt: row!.erased_at, title, proofs: erasedProofs.length, releasedObjects };
}

/** The SQL condition of a final mailing `s` (domain/mailings/states.ts isFinal, and isFinalOn for an electronic one: at its last step). */
const FINAL = `(s.status IN ('returned', 'error', 'canceled') OR (s.mode = 'simple' AND s.status = 'posted')
  OR (s.mode = 'registered' AND s.status = 'delivered') OR (s.mode = 'ar' AND s.status = 'ar_signed')
  OR (s.channel = 'electronic' AND s.step >= s.last_step))`;

/** When a mailing ended: its last event's time. */
const ENDED_AT = `coalesce((SELECT max(e.at) FROM shipment_events e WHERE e.shipment_id = s.id), s.updated_at)`;

/**
 * Final mailings not yet erased whose account's retention period (accounts.retention_days) is over
 * at `now`, oldest first, at most `limit`. Walked account by account on the partial index
 * `shipments_unerased_by_account` (20261206000200), only as far as the mailings made before the
 * account's term: a mailing ends no earlier than it was made (its first event, `paid`, is recorded
 * at its `created_at`), so the others cannot be past it. The hourly run so reads the few mailings
 * near their term, not every mailing kept (100,000 mailings: 3 ms instead of 540; the migration).
 */
export async function mailingsPastRetention(db: Db, options: { now: Date; limit: number }): Promise<string[]> {
  const term = `?::timestamptz - make_interval(days => a.retention_days)`;
  const now = options.now.toISOString();
  const { rows } = (await db.raw(
    `SELECT p.id FROM accounts a CROSS JOIN LATERAL (
       SELECT s.id, s.created_at FROM shipments s
        WHERE s.account_id = a.id AND s.erased_at IS NULL AND s.created_at < ${term}
          AND ${FINAL} AND ${ENDED_AT} < ${term}
        ORDER BY s.created_at, s.id LIMIT ?) p
      ORDER BY p.created_at, p.id LIMIT ?`,
    [now, now, options.limit, options.limit],
  )) as { rows: { id: string }[] };
  return rows.map((r) => r.id);
}

/** A page of an account's final mailings not yet erased, in the order they were made, after `after` (the last of the page before). */
export async function unerasedFinalMailingsOfAccount(
  db: Db,
  accountId: string,
  options: { after?: { id: string; createdAt: Date }; limit: number },
): Promise<{ id: string; createdAt: Date }[]> {
  const after = options.after ? `AND (s.created_at, s.id) > (?::timestamptz, ?::uuid)` : '';
  const { rows } = (await db.raw(
    `SELECT s.id, s.created_at FROM shipments s
      WHERE s.account_id = ? AND s.erased_at IS NULL AND ${FINAL} ${after}
      ORDER BY s.created_at, s.id LIMIT ?`,
    [accountId, ...(options.after ? [options.after.createdAt.toISOString(), options.after.id] : []), options.limit],
  )) as { rows: { id: string; created_at: Date }[] };
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at }));
}

/** The account's mailings not erased that are not final yet (an erasure leaves them as they are). */
export async function unerasedMailingsNotFinal(db: Db, accountId: string): Promise<string[]> {
  const { rows } = (await db.raw(`SELECT s.id FROM shipments s WHERE s.account_id = ? AND s.erased_at IS NULL AND NOT ${FINAL} ORDER BY s.created_at, s.id`, [
    accountId,
  ])) as { rows: { id: string }[] };
  return rows.map((r) => r.id);
}

/** How many of the account's mailings were erased at `since` or later (what an account's closing erased). */
export async function countMailingsErasedSince(db: Db, accountId: string, since: Date): Promise<number> {
  const [{ n }] = (await db('shipments').where({ account_id: accountId }).where('erased_at', '>=', since).count({ n: '*' })) as { n: string }[];
  return Number(n);
}
