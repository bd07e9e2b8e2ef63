import type { Db, Tx } from '../../db/knex.js';
import { logger } from '../../lib/logger.js';
import { ownPdfNamesObject } from '../mailings/own-pdf-store.js';
import { proofNamesObject } from '../mailings/proofs.js';
import { documentStore } from './store.js';

/**
 * The objects an erasure released (table document_deletions: its only SQL). An erasure queues
 * them in its own transaction and never waits on the store; they are deleted after it commits,
 * and by each run of the `mailing-retention` Schedule for any left over (the store was down).
 * Content-addressed: an object is deleted only once no row names its key.
 */
export async function queueDocumentDeletions(trx: Tx, keys: string[]): Promise<void> {
  if (!keys.length) return;
  await trx('document_deletions')
    .insert(keys.map((key) => ({ object_key: key })))
    .onConflict('object_key')
    .ignore();
}

/** Queued deletions read per page. */
const PAGE = 200;

/**
 * Deletes the queued objects that no row names (`keys`: only those; otherwise every queued one).
 * Each in its own transaction: the own PDF's row that could name it again is locked while it is
 * checked and deleted (storeOwnPdfs takes the same lock before it puts). Returns how many objects
 * were deleted; a store that is down leaves the rest queued (logged, not thrown: the erasure is done).
 */
export async function deleteReleasedDocuments(db: Db, keys?: string[]): Promise<number> {
  const store = documentStore();
  if (store.kind === 'postgres') return 0;
  let deleted = 0;
  for (;;) {
    const query = db('document_deletions').orderBy('object_key').limit(PAGE).pluck('object_key');
    if (keys) query.whereIn('object_key', keys);
    const page = (await query) as string[];
    for (const key of page) {
      try {
        const done = await db.transaction(async (trx) => {
          const named = (await ownPdfNamesObject(trx, key)) || (await proofNamesObject(trx, key));
          if (!named) await store.delete(key);
          await trx('document_deletions').where({ object_key: key }).delete();
          return !named;
        });
        if (done) deleted++;
      } catch (error) {
        logger.warn({ err: error, objectKey: key }, 'a released document could not be deleted yet; the next retention run tries again');
        return deleted;
      }
    }
    if (page.length < PAGE || keys) return deleted;
  }
}
