import { Context } from '@temporalio/activity';
import type { Db } from '../db/knex.js';
import type { Config } from '../lib/config.js';
import type { Workflows } from '../domain/deps.js';
import { batchIsFinal, batchMailingStarts, completeBatch, startBatchMailings } from '../domain/batches/batches.js';
import type { MailingStart } from '../domain/mailings/workflow-input.js';
import type { DeliveryTarget } from '../domain/webhooks/event-types.js';

/** The batch workflow's activities (workflows/batch.ts): thin adapters over domain/batches/. */
export function batchActivities(db: Db, config: Config, workflows: Workflows | undefined) {
  return {
    /** The next chunk of a batch's mailings to start, after the last one started (by id): batches started before BATCH_STARTS_PATCH. */
    batchMailingStarts: (batchId: string, after: string | null, limit: number): Promise<MailingStart[]> =>
      batchMailingStarts(db, config, batchId, after, limit),
    /** Starts the workflows of the next chunk of a batch's mailings; how many, and the last one's id. */
    startBatchMailings: (batchId: string, after: string | null, limit: number): Promise<{ started: number; last: string | null }> => {
      if (!workflows) throw new Error('this worker has no Temporal client to start a batch of mailings');
      // A heartbeat per start: a worker lost mid-chunk is noticed in seconds (the workflow's heartbeat timeout).
      return startBatchMailings(db, config, workflows.mailings, batchId, after, limit, () => Context.current().heartbeat());
    },
    /** Whether every mailing of the batch is final. */
    batchIsFinal: (batchId: string): Promise<boolean> => batchIsFinal(db, batchId),
    /** Records the batch's end and its mailing_batch.completed event; the deliveries to start. */
    completeBatch: (batchId: string): Promise<DeliveryTarget[]> => completeBatch(db, batchId),
  };
}
