import type { Db, Tx } from '../../db/knex.js';
import type { AddressPlacement } from './own-pdf.js';

/** The customer's own PDF of a mailing, as stored (table shipment_pdfs: its only SQL). */
export interface StoredOwnPdf {
  pdf: Buffer;
  sha256: string;
  pages: number;
  addressPlacement: AddressPlacement;
}

/** Stored in the transaction that records the mailing: the mailing never exists without it. */
export async function storeOwnPdf(trx: Tx, shipmentId: string, stored: StoredOwnPdf): Promise<void> {
  await trx('shipment_pdfs').insert({
    shipment_id: shipmentId,
    pdf: stored.pdf,
    sha256: stored.sha256,
    pages: stored.pages,
    address_placement: stored.addressPlacement,
  });
}

/** The PDF of a mailing, if it is an own-PDF mailing (of `accountId` when given: the developer space's preview). */
export async function findOwnPdf(db: Db | Tx, shipmentId: string, accountId?: string): Promise<StoredOwnPdf | undefined> {
  const query = db('shipment_pdfs as p').where('p.shipment_id', shipmentId).first('p.pdf', 'p.sha256', 'p.pages', 'p.address_placement');
  if (accountId) query.join('shipments as s', 's.id', 'p.shipment_id').where('s.account_id', accountId);
  const row = (await query) as { pdf: Buffer; sha256: string; pages: number; address_placement: AddressPlacement } | undefined;
  return row && { pdf: row.pdf, sha256: row.sha256, pages: row.pages, addressPlacement: row.address_placement };
}
