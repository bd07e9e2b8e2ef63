import type { Db, Tx } from '../../db/knex.js';
import type { AddressPlacement } from './own-pdf.js';

/**
 * The customer's own PDF of a mailing, as stored (tables shipment_pdfs and pdf_documents: their
 * only SQL). The bytes are kept once by their SHA-256, however many mailings print them.
 */
export interface StoredOwnPdf {
  pdf: Buffer;
  sha256: string;
  pages: number;
  addressPlacement: AddressPlacement;
}

/**
 * Stored in the transaction that records the mailings: none exists without its PDF. The bytes of
 * each distinct PDF are sent to the database once (a batch's rows share one).
 */
export async function storeOwnPdfs(trx: Tx, mailings: { shipmentId: string; stored: StoredOwnPdf }[]): Promise<void> {
  if (!mailings.length) return;
  const documents = new Map(mailings.map(({ stored }) => [stored.sha256, stored.pdf]));
  // Bytes erased with the mailings that printed them (releaseOwnPdf) are stored again; the row is locked either way.
  for (const [sha256, pdf] of documents)
    await trx.raw(
      'INSERT INTO pdf_documents (sha256, pdf) VALUES (?, ?) ON CONFLICT (sha256) DO UPDATE SET pdf = excluded.pdf WHERE pdf_documents.pdf IS NULL',
      [sha256, pdf],
    );
  await trx('shipment_pdfs').insert(
    mailings.map(({ shipmentId: mailingId, stored }) => ({
      shipment_id: mailingId,
      sha256: stored.sha256,
      pages: stored.pages,
      address_placement: stored.addressPlacement,
    })),
  );
}

/** The PDF of a mailing, if it is an own-PDF mailing (of `accountId` when given: the developer space's preview). */
export async function findOwnPdf(db: Db | Tx, mailingId: string, accountId?: string): Promise<StoredOwnPdf | undefined> {
  const query = db('shipment_pdfs as p')
    .join('pdf_documents as d', 'd.sha256', 'p.sha256')
    .where('p.shipment_id', mailingId)
    .first('d.pdf', 'p.sha256', 'p.pages', 'p.address_placement');
  if (accountId) query.join('shipments as s', 's.id', 'p.shipment_id').where('s.account_id', accountId);
  // An erased mailing has no PDF any more, even when another mailing stored the same bytes again.
  query.whereNotNull('d.pdf').whereNotExists((q) => q.from('shipments as e').whereRaw('e.id = p.shipment_id').whereNotNull('e.erased_at'));
  const row = (await query) as { pdf: Buffer; sha256: string; pages: number; address_placement: AddressPlacement } | undefined;
  return row && { pdf: row.pdf, sha256: row.sha256, pages: row.pages, addressPlacement: row.address_placement };
}

/**
 * Erases the bytes of a mailing's own PDF once no mailing that is not erased prints them
 * (domain/privacy/erasure.ts; the mailing is already marked erased in `trx`). The row stays, with its
 * SHA-256: the mailings that printed it still name it. The row is locked first, so a mailing recorded
 * at the same moment with the same PDF either is seen by the check, or finds the bytes gone and
 * stores them again (storeOwnPdfs). Returns whether the bytes were erased.
 */
export async function releaseOwnPdf(trx: Tx, mailingId: string): Promise<boolean> {
  const own = (await trx('shipment_pdfs').where('shipment_id', mailingId).first('sha256')) as { sha256: string } | undefined;
  if (!own) return false;
  await trx.raw('SELECT 1 FROM pdf_documents WHERE sha256 = ? FOR UPDATE', [own.sha256]);
  const { rowCount } = (await trx.raw(
    `UPDATE pdf_documents d SET pdf = NULL
      WHERE d.sha256 = ? AND d.pdf IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM shipment_pdfs p JOIN shipments s ON s.id = p.shipment_id WHERE p.sha256 = d.sha256 AND s.erased_at IS NULL)`,
    [own.sha256],
  )) as { rowCount: number };
  return rowCount > 0;
}
