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
  for (const [sha256, pdf] of documents) await trx('pdf_documents').insert({ sha256, pdf }).onConflict('sha256').ignore();
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
  const row = (await query) as { pdf: Buffer; sha256: string; pages: number; address_placement: AddressPlacement } | undefined;
  return row && { pdf: row.pdf, sha256: row.sha256, pages: row.pages, addressPlacement: row.address_placement };
}
