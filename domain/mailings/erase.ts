import type { Db, Tx } from '../../db/knex.js';
import { ERASED, type MailingDocument } from './mailing.js';
import type { MailingStatus, Mode } from './states.js';
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
    .first('id', 'account_id', 'test', 'mode', 'status', 'document', 'warnings', 'erased_at')) as ErasableMailing | undefined;
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
export async function eraseMailingRow(trx: Tx, mailing: ErasableMailing): Promise<{ erasedAt: Date; title: string; proofs: number }> {
  const document = erasedDocument(mailing.document);
  const [row] = (await trx('shipments')
    .where('id', mailing.id)
    .update({
      recipient: JSON.stringify({ name: ERASED, lines: [], postcode: '', city: '', country: 'FR' }),
      recipient_email: null,
      document: JSON.stringify(document),
      title: document.title,
      layout: null,
      warnings: JSON.stringify(erasedWarnings(mailing.warnings)),
      erased_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    })
    .returning(['erased_at'])) as { erased_at: Date }[];
  const proofs = await trx('shipment_proofs').where('shipment_id', mailing.id).whereNotNull('pdf').update({ pdf: null });
  return { erasedAt: row!.erased_at, title: document.title, proofs };
}

/** The SQL condition of a final mailing `s` (domain/mailings/states.ts isFinal). */
const FINAL = `(s.status IN ('returned', 'error', 'canceled') OR (s.mode = 'simple' AND s.status = 'posted')
  OR (s.mode = 'registered' AND s.status = 'delivered') OR (s.mode = 'ar' AND s.status = 'ar_signed'))`;

/** When a mailing ended: its last event's time. */
const ENDED_AT = `coalesce((SELECT max(e.at) FROM shipment_events e WHERE e.shipment_id = s.id), s.updated_at)`;

/**
 * Final mailings not yet erased whose account's retention period (accounts.retention_days) is over
 * at `now`, oldest first, at most `limit`.
 */
export async function mailingsPastRetention(db: Db, options: { now: Date; limit: number }): Promise<string[]> {
  const { rows } = (await db.raw(
    `SELECT s.id FROM shipments s JOIN accounts a ON a.id = s.account_id
      WHERE s.erased_at IS NULL AND ${FINAL}
        AND ${ENDED_AT} < ?::timestamptz - make_interval(days => a.retention_days)
      ORDER BY s.created_at LIMIT ?`,
    [options.now.toISOString(), options.limit],
  )) as { rows: { id: string }[] };
  return rows.map((r) => r.id);
}

/** An account's mailings not yet erased: the final ones, and how many are not final yet. */
export async function unerasedMailingsOfAccount(db: Db | Tx, accountId: string): Promise<{ final: string[]; notFinal: string[] }> {
  const { rows } = (await db.raw(`SELECT s.id, ${FINAL} AS final FROM shipments s WHERE s.account_id = ? AND s.erased_at IS NULL ORDER BY s.created_at`, [
    accountId,
  ])) as { rows: { id: string; final: boolean }[] };
  return { final: rows.filter((r) => r.final).map((r) => r.id), notFinal: rows.filter((r) => !r.final).map((r) => r.id) };
}
