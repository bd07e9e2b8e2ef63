/** The domain's BatchPort (domain/batches/port.ts) on a Temporal client. */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import type { BatchPort } from '../domain/batches/port.js';
import { START_DEADLINE_MS } from '../domain/mailings/creation-protocol.js';
import { mailingBatch } from '../workflows/index.js';
import { ACCOUNT_ID, batchWorkflowId, MAILING_TEST } from '../workflows/contract.js';
import type { TemporalCalls } from './calls.js';

export function temporalBatches({ client, config, withDeadline }: TemporalCalls): BatchPort {
  return {
    async start(input) {
      try {
        await withDeadline(START_DEADLINE_MS, () =>
          client.workflow.start(mailingBatch, {
            taskQueue: config.taskQueue,
            workflowId: batchWorkflowId(input.batchId),
            // A batch runs once: its mailings are started by id, whoever starts the batch.
            workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
            args: [input],
            staticSummary: `mailing batch · ${input.test ? 'test' : 'live'}`,
            staticDetails: `Batch ${input.batchId} of account ${input.accountId}`,
            typedSearchAttributes: [
              { key: ACCOUNT_ID, value: input.accountId },
              { key: MAILING_TEST, value: input.test },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw error;
      }
    },
  };
}
