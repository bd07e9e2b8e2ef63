/**
 * A batch of mailings (POST /v1/mailing-batches): its mailings are recorded and paid before this
 * starts; it starts their workflows as children, a chunk at a time, then waits until every one is
 * final and announces mailing_batch.completed. Continued as new every few chunks and every few
 * counts, so a 5,000-mailing batch keeps a small history.
 */
import { continueAsNew, ParentClosePolicy, proxyActivities, sleep, startChild } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import type { BatchWorkflowInput } from '../domain/batches/workflow-input.js';
import type { MailingStart } from '../domain/mailings/workflow-input.js';
import type { DeliveryTarget } from '../domain/webhooks/event-types.js';
import { deliverySearchAttributes, deliverySummary, deliveryWorkflowId, mailingStartOptions } from './contract.js';
import { mailing } from './mailing.js';
import { webhookDelivery } from './webhook-delivery.js';

/** Mailings started at once (one activity reads them, then their starts go out together). */
export const BATCH_CHUNK = 100;
/** Chunks per run: about 2 × 100 history events each, so a run stays near a thousand events. */
export const CHUNKS_PER_RUN = 5;
/** Counts per run while waiting: a few events each. */
export const COUNTS_PER_RUN = 100;

const batches = proxyActivities<Activities>({ startToCloseTimeout: '1m', retry: { initialInterval: '1s', maximumInterval: '1m' } });

/**
 * A mailing's own workflow, under its own id (the one POST /v1/mailings and the reconciler use):
 * already started (by the reconciler, or by this batch before a crash) is success. It outlives the
 * batch's runs (ABANDON): a continue-as-new never stops a mailing.
 */
async function startMailing(start: MailingStart): Promise<void> {
  try {
    await startChild(mailing, { ...mailingStartOptions(start), parentClosePolicy: ParentClosePolicy.ABANDON });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
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
  if (!input.allStarted) {
    let after: string | undefined = input.startedThrough;
    for (let chunk = 0; chunk < chunksPerRun; chunk++) {
      const starts = await batches.batchMailingStarts(input.batchId, after ?? null, chunkSize);
      await Promise.all(starts.map(startMailing));
      if (starts.length < chunkSize) return continueAsNew<typeof mailingBatch>({ ...input, startedThrough: undefined, allStarted: true });
      after = starts[starts.length - 1]!.input.shipmentId;
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
  return continueAsNew<typeof mailingBatch>(input);
}
