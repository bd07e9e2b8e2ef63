import type { Db } from '../db/knex.js';
import type { Config } from '../lib/config.js';
import { batchIsFinal, batchMailingStarts, completeBatch } from '../domain/batches/batches.js';
import type { MailingStart } from '../domain/mailings/workflow-input.js';
import type { DeliveryTarget } from '../domain/webhooks/event-types.js';

/** The batch workflow's activities (workflows/batch.ts): thin adapters over domain/batches/. */
export function batchActivities(db: Db, config: Config) {
  return {
    /** The next chunk of a batch's mailings to start, after the last one started (by id). */
    batchMailingStarts: (batchId: string, after: string | null, limit: number): Promise<MailingStart[]> =>
      batchMailingStarts(db, config, batchId, after, limit),
    /** Whether every mailing of the batch is final. */
    batchIsFinal: (batchId: string): Promise<boolean> => batchIsFinal(db, batchId),
    /** Records the batch's end and its mailing_batch.completed event; the deliveries to start. */
    completeBatch: (batchId: string): Promise<DeliveryTarget[]> => completeBatch(db, batchId),
  };
}
