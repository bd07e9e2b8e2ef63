import type { Db, Tx } from '../../db/knex.js';
import { documentBytes, documentStore } from '../documents/store.js';
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
 * each distinct PDF are sent to the database once (a batch's rows share one), or to the document
 * store (DOCUMENT_STORE=s3) once its row is locked and before it commits: an erasure's deletion of
 * the same object (domain/documents/deletions.ts) takes that lock too, so it never deletes what a
 * row about to commit names. The caller may have put them already (putOwnPdf): that put is then a
 * look-up. The store down: DocumentStoreUnavailable, and the transaction rolls back.
 */
export async function storeOwnPdfs(trx: Tx, mailings: { shipmentId: string; stored: StoredOwnPdf }[]): Promise<void> {
  if (!mailings.length) return;
  const documents = new Map(mailings.map(({ stored }) => [stored.sha256, stored.pdf]));
  const store = documentStore();
  for (const [sha256, pdf] of documents) {
    if (store.kind === 'postgres') {
      // Bytes erased with the mailings that printed them (releaseOwnPdf) are stored again; the row is locked either way.
      await trx.raw(
        'INSERT INTO pdf_documents (sha256, pdf) VALUES (?, ?) ON CONFLICT (sha256) DO UPDATE SET pdf = excluded.pdf WHERE pdf_documents.pdf IS NULL AND pdf_documents.object_key IS NULL',
        [sha256, pdf],
      );
      continue;
    }
    // A row that still holds its bytes (written before the store) keeps them; an erased one names the object again.
    await trx.raw(
      `INSERT INTO pdf_documents (sha256, object_key, object_size) VALUES (?, ?, ?) ON CONFLICT (sha256) DO UPDATE
         SET object_key = excluded.object_key, object_size = excluded.object_size WHERE pdf_documents.pdf IS NULL AND pdf_documents.object_key IS NULL`,
      [sha256, sha256, pdf.byteLength],
    );
    await store.put(pdf);
  }
  await trx('shipment_pdfs').insert(
    mailings.map(({ shipmentId: mailingId, stored }) => ({
      shipment_id: mailingId,
      sha256: stored.sha256,
      pages: stored.pages,
      address_placement: stored.addressPlacement,
    })),
  );
}

/**
 * Puts a PDF in the document store before the transaction that records its mailing, so that the
 * upload is not inside it and a store that is down refuses the mailing before anything is done.
 */
export async function putOwnPdf(stored: StoredOwnPdf): Promise<void> {
  if (documentStore().kind !== 'postgres') await documentStore().put(stored.pdf);
}

/** The PDF of a mailing, if it is an own-PDF mailing (of `accountId` when given: the developer space's preview). */
export async function findOwnPdf(db: Db | Tx, mailingId: string, accountId?: string): Promise<StoredOwnPdf | undefined> {
  const query = db('shipment_pdfs as p')
    .join('pdf_documents as d', 'd.sha256', 'p.sha256')
    .where('p.shipment_id', mailingId)
    .first('d.pdf', 'd.object_key', 'p.sha256', 'p.pages', 'p.address_placement');
  if (accountId) query.join('shipments as s', 's.id', 'p.shipment_id').where('s.account_id', accountId);
  // An erased mailing has no PDF any more, even when another mailing stored the same bytes again.
  query
    .where((q) => q.whereNotNull('d.pdf').orWhereNotNull('d.object_key'))
    .whereNotExists((q) => q.from('shipments as e').whereRaw('e.id = p.shipment_id').whereNotNull('e.erased_at'));
  const row = (await query) as
    { pdf: Buffer | null; object_key: string | null; sha256: string; pages: number; address_placement: AddressPlacement } | undefined;
  return row && { pdf: await documentBytes(row), sha256: row.sha256, pages: row.pages, addressPlacement: row.address_placement };
}

/**
 * Erases the bytes of a mailing's own PDF once no mailing that is not erased prints them
 * (domain/privacy/erasure.ts; the mailing is already marked erased in `trx`). The row stays, with its
 * SHA-256: the mailings that printed it still name it. The row is locked first, so a mailing recorded
 * at the same moment with the same PDF either is seen by the check, or finds the bytes gone and
 * stores them again (storeOwnPdfs). Returns whether the bytes were erased, and the object released
 * (to delete once no row names it, domain/documents/deletions.ts) when they were in the store.
 */
export async function releaseOwnPdf(trx: Tx, mailingId: string): Promise<{ erased: boolean; objectKey: string | null }> {
  const own = (await trx('shipment_pdfs').where('shipment_id', mailingId).first('sha256')) as { sha256: string } | undefined;
  if (!own) return { erased: false, objectKey: null };
  const locked = (await trx.raw('SELECT object_key FROM pdf_documents WHERE sha256 = ? FOR UPDATE', [own.sha256])) as { rows: { object_key: string | null }[] };
  const { rowCount } = (await trx.raw(
    `UPDATE pdf_documents d SET pdf = NULL, object_key = NULL, object_size = NULL
      WHERE d.sha256 = ? AND (d.pdf IS NOT NULL OR d.object_key IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM shipment_pdfs p JOIN shipments s ON s.id = p.shipment_id WHERE p.sha256 = d.sha256 AND s.erased_at IS NULL)`,
    [own.sha256],
  )) as { rowCount: number };
  return { erased: rowCount > 0, objectKey: rowCount > 0 ? (locked.rows[0]?.object_key ?? null) : null };
}

/**
 * Whether an own PDF's row names the object `key` (its row locked until `trx` ends: storeOwnPdfs
 * waits for the deletion's check and delete, or the deletion sees the row that names it again).
 */
export async function ownPdfNamesObject(trx: Tx, key: string): Promise<boolean> {
  const row = (await trx.raw('SELECT object_key FROM pdf_documents WHERE sha256 = ? FOR UPDATE', [key])) as { rows: { object_key: string | null }[] };
  return row.rows.some((r) => r.object_key === key);
}

/** A page of own PDFs whose bytes are still in their rows (`admin documents migrate`), by SHA-256. */
export async function ownPdfsInRows(db: Db, limit: number, accountId?: string): Promise<string[]> {
  const query = db('pdf_documents').whereNotNull('pdf').orderBy('sha256').limit(limit);
  // One account's: the documents its mailings print (a document shared with another account moves for both).
  if (accountId)
    query.whereExists(
      db('shipment_pdfs as sp')
        .join('shipments as s', 's.id', 'sp.shipment_id')
        .whereRaw('sp.sha256 = pdf_documents.sha256')
        .andWhere('s.account_id', accountId)
        .select(db.raw('1')),
    );
  return query.pluck('sha256');
}

/**
 * Moves one own PDF's bytes out of its row into the store: the object is put first, then the row
 * names it and drops its bytes, under the row's lock (a row erased or moved meanwhile is left as it is).
 */
export async function moveOwnPdfToStore(db: Db, sha256: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = (await trx('pdf_documents').where({ sha256 }).whereNotNull('pdf').forUpdate().first('pdf')) as { pdf: Buffer } | undefined;
    if (!row) return false;
    const stored = await documentStore().put(row.pdf);
    if (stored.objectKey !== sha256) throw new Error(`own PDF ${sha256}: its bytes hash to ${stored.sha256}`);
    await trx('pdf_documents').where({ sha256 }).update({ pdf: null, object_key: stored.objectKey, object_size: stored.objectSize });
    return true;
  });
}
