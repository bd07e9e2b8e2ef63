import type { Db } from '../../db/knex.js';
import { moveOwnPdfToStore, ownPdfsInRows } from '../mailings/own-pdf-store.js';
import { moveProofToStore, proofsInRows } from '../mailings/proofs.js';
import { documentStore } from './store.js';

export interface DocumentMigration {
  ownPdfs: number;
  proofs: number;
}

/**
 * Moves the bytes still in PostgreSQL (own PDFs, proofs) to the document store (`admin documents
 * migrate`): each row on its own, its object put before the row names it and drops its bytes, a
 * page of `batch` rows at a time. Resumable and safe to run twice or beside the service: a row
 * already moved (or erased) is no longer read, and each move holds only that row's lock. With
 * `accountId`, only that account's documents (a first customer moved alone, or a test's own).
 */
export async function migrateDocumentsToStore(
  db: Db,
  options: { batch: number; accountId?: string; onBatch?: (moved: DocumentMigration) => void },
): Promise<DocumentMigration> {
  if (documentStore().kind === 'postgres')
    throw new Error('DOCUMENT_STORE is postgres: set DOCUMENT_STORE=s3 and its S3_* settings to move documents out of the database');
  const moved: DocumentMigration = { ownPdfs: 0, proofs: 0 };
  for (;;) {
    const page = await ownPdfsInRows(db, options.batch, options.accountId);
    for (const sha256 of page) if (await moveOwnPdfToStore(db, sha256)) moved.ownPdfs++;
    options.onBatch?.(moved);
    if (page.length < options.batch) break;
  }
  for (;;) {
    const page = await proofsInRows(db, options.batch, options.accountId);
    for (const { shipmentId, kind } of page) if (await moveProofToStore(db, shipmentId, kind)) moved.proofs++;
    options.onBatch?.(moved);
    if (page.length < options.batch) break;
  }
  return moved;
}
