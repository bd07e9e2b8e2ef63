import { Context } from '@temporalio/activity';
import type { Db } from '../db/knex.js';
import type { Config } from '../lib/config.js';
import type { Workflows } from '../domain/deps.js';
import { batchIsFinal, batchMailingStarts, completeBatch, startAllBatchMailings } from '../domain/batches/batches.js';
import type { MailingStart } from '../domain/mailings/workflow-input.js';
import type { DeliveryTarget } from '../domain/webhooks/event-types.js';

/** The batch workflow's activities (workflows/batch.ts): thin adapters over domain/batches/. */
export function batchActivities(db: Db, config: Config, workflows: Workflows | undefined) {
  return {
    /** The next chunk of a batch's mailings to start, after the last one started (by id): batches started before BATCH_STARTS_PATCH. */
    batchMailingStarts: (batchId: string, after: string | null, limit: number): Promise<MailingStart[]> =>
      batchMailingStarts(db, config, batchId, after, limit),
    /**
     * Starts the workflows of every mailing of the batch after `after` (by id), `chunkSize` read at
     * a time; how many. A heartbeat per start carries the id through which all are started, where
     * a retry (a worker lost) resumes.
     */
    startAllBatchMailings: (batchId: string, after: string | null, chunkSize: number): Promise<number> => {
      if (!workflows) throw new Error('this worker has no Temporal client to start a batch of mailings');
      const context = Context.current();
      const resumeFrom = (context.info.heartbeatDetails as string | null | undefined) ?? after;
      return startAllBatchMailings(db, config, workflows.mailings, batchId, resumeFrom, chunkSize, (startedThrough) => context.heartbeat(startedThrough));
    },
    /** Whether every mailing of the batch is final. */
    batchIsFinal: (batchId: string): Promise<boolean> => batchIsFinal(db, batchId),
    /** Records the batch's end and its mailing_batch.completed event; the deliveries to start. */
    completeBatch: (batchId: string): Promise<DeliveryTarget[]> => completeBatch(db, batchId),
  };
}
