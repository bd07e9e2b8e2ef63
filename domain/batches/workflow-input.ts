import type { Config } from '../../lib/config.js';

/** What the batch workflow (workflows/batch.ts) is started and continued with. */
export interface BatchWorkflowInput {
  batchId: string;
  accountId: string;
  test: boolean;
  /** How long it waits between two counts of its mailings' statuses. */
  pollMs: number;
  /** Delays between webhook attempts, for the deliveries of mailing_batch.completed. */
  webhookRetryDelaysMs: number[];
  /** The last mailing whose workflow this batch started (mailings go by id); absent: none yet. */
  startedThrough?: string;
  /** Every mailing's workflow is started: the batch now waits for them to be final. */
  allStarted?: boolean;
  /** Tests only: mailings started at once, chunks and counts per run (absent: workflows/batch.ts's). */
  chunkSize?: number;
  chunksPerRun?: number;
  countsPerRun?: number;
}

/** The first run's input of a recorded batch (at creation, or by the reconciler). */
export function batchWorkflowInput(config: Config, batch: { id: string; account_id: string; test: boolean }): BatchWorkflowInput {
  // The batch counts its mailings as often as the operator's tracking is asked for news: a
  // batch's end is known about as soon as its last letter's.
  return { batchId: batch.id, accountId: batch.account_id, test: batch.test, pollMs: config.operatorPollMs, webhookRetryDelaysMs: config.webhookRetryDelaysMs };
}
