/**
 * A batch of mailings (POST /v1/mailing-batches): its mailings are recorded and paid before this
 * starts; it starts every one's workflow in one activity, then waits until every one is final and
 * announces mailing_batch.completed. Continued as new every few counts, so a batch waiting for
 * days keeps a small history. Batches started before BATCH_STARTS_PATCH start theirs as children,
 * a chunk at a time, continued as new every few chunks.
 */
import { continueAsNew, ParentClosePolicy, patched, proxyActivities, sleep, startChild } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import type { BatchWorkflowInput } from '../domain/batches/workflow-input.js';
import type { MailingStart } from '../domain/mailings/workflow-input.js';
import type { DeliveryTarget } from '../domain/webhooks/event-types.js';
import { deliverySearchAttributes, deliverySummary, deliveryWorkflowId, mailingStartOptions } from './contract.js';
import { mailing } from './mailing.js';
import { webhookDelivery } from './webhook-delivery.js';

/** Mailings read at once by the starting activity (before BATCH_STARTS_PATCH: children started at once). */
export const BATCH_CHUNK = 100;
/** Before BATCH_STARTS_PATCH: chunks per run, about 2 × 100 history events each (a run stayed near a thousand events). */
export const CHUNKS_PER_RUN = 5;
/**
 * The patch of issue 57, part 2: every mailing of the batch is started by one activity, through
 * the Temporal client, 16 at once, reading chunk after chunk and heartbeating how far it got (a
 * retry resumes there). As children, each start went through the batch's own history, one after
 * the other; with one activity per chunk (a build that never landed), each chunk waited for a
 * workflow task of the batch, queued behind the first tasks of the hundreds of mailings it had
 * just started (4.4 s of a 12.4 s batch of 1,000 rows, bench 2026-12-07). Batches started
 * before it go on starting children.
 */
export const BATCH_STARTS_PATCH = 'batch-starts-by-activity';
/** Counts per run while waiting: a few events each. */
export const COUNTS_PER_RUN = 100;

const batches = proxyActivities<Activities>({ startToCloseTimeout: '1m', retry: { initialInterval: '1s', maximumInterval: '1m' } });
// Every start of a batch (up to MAX_BATCH_ROWS) at Temporal's own pace: a long timeout, and a heartbeat per start.
const starting = proxyActivities<Activities>({
  startToCloseTimeout: '1h',
  heartbeatTimeout: '20s',
  retry: { initialInterval: '1s', maximumInterval: '1m' },
});

/**
 * Before BATCH_STARTS_PATCH: a mailing's own workflow as a child, under its own id (the one POST
 * /v1/mailings and the reconciler use): already started (by the reconciler, or by this batch
 * before a crash) is success. It outlives the batch's runs (ABANDON): a continue-as-new never
 * stops a mailing.
 */
async function startMailingChild(start: MailingStart): Promise<void> {
  try {
    await startChild(mailing, { ...mailingStartOptions(start), parentClosePolicy: ParentClosePolicy.ABANDON });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/** Before BATCH_STARTS_PATCH: a chunk read by one activity, its mailings started as children together. */
async function startChunkAsChildren(batchId: string, after: string | null, limit: number): Promise<{ started: number; last: string | null }> {
  const starts = await batches.batchMailingStarts(batchId, after, limit);
  await Promise.all(starts.map(startMailingChild));
  return { started: starts.length, last: starts.at(-1)?.input.shipmentId ?? null };
}

async function startDelivery(input: BatchWorkflowInput, target: DeliveryTarget): Promise<void> {
  try {
    await startChild(webhookDelivery, {
      workflowId: deliveryWorkflowId(target.deliveryId),
      args: [{ deliveryId: target.deliveryId, retryDelaysMs: input.webhookRetryDelaysMs }],
      staticSummary: deliverySummary(target),
      typedSearchAttributes: deliverySearchAttributes(target),
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

export async function mailingBatch(input: BatchWorkflowInput): Promise<void> {
  const { chunkSize = BATCH_CHUNK, chunksPerRun = CHUNKS_PER_RUN, countsPerRun = COUNTS_PER_RUN } = input;
  // What the counting runs continue with.
  let counting = input;
  if (!input.allStarted && patched(BATCH_STARTS_PATCH)) {
    await starting.startAllBatchMailings(input.batchId, input.startedThrough ?? null, chunkSize);
    counting = { ...input, startedThrough: undefined, allStarted: true };
  } else if (!input.allStarted) {
    let after: string | undefined = input.startedThrough;
    for (let chunk = 0; chunk < chunksPerRun; chunk++) {
      const { started, last } = await startChunkAsChildren(input.batchId, after ?? null, chunkSize);
      if (started < chunkSize) return continueAsNew<typeof mailingBatch>({ ...input, startedThrough: undefined, allStarted: true });
      after = last!;
    }
    return continueAsNew<typeof mailingBatch>({ ...input, startedThrough: after });
  }
  // A timer between counts, never a tight poll: a mailing takes days, a batch's end is no hurry.
  for (let count = 0; count < countsPerRun; count++) {
    if (await batches.batchIsFinal(input.batchId)) {
      const deliveries = await batches.completeBatch(input.batchId);
      await Promise.all(deliveries.map((target) => startDelivery(input, target)));
      return;
    }
    await sleep(input.pollMs);
  }
  return continueAsNew<typeof mailingBatch>(counting);
}
