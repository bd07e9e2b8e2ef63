import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import proto from '@temporalio/proto';
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { DELIVERY_STATUS, MAILING_MODE, MAILING_STATUS, MAILING_TEST } from '../../workflows/contract.js';

/**
 * `RECORD_HISTORIES=DIR npm run test:serial` (one stack sees every path; `npm test` runs two, and
 * refuses): at the end of the run, the histories of the mailings, webhook
 * deliveries, batches, top-ups and sender identity calls the suite ran, one per kind of path (workflow type, test or live, mode,
 * last status, open or closed), the longest of each, written to DIR to refresh
 * test/fixtures/histories/ after a workflow change (docs/workflow-versioning.md).
 */
export async function recordHistories(client: Client, dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const query =
    "WorkflowType = 'mailing' OR WorkflowType = 'webhookDelivery' OR WorkflowType = 'topUp' OR WorkflowType = 'checkoutSession' OR WorkflowType = 'mailingBatch'" +
    " OR WorkflowType = 'senderIdentityRequest' OR WorkflowType = 'senderIdentityRead'";
  const longest = new Map<string, { execution: WorkflowExecutionInfo; events: number }>();
  for await (const execution of client.workflow.list({ query })) {
    const key = pathOf(execution, execution.type === 'mailing' && (await isElectronic(client, execution)));
    const events = execution.historyLength;
    if ((longest.get(key)?.events ?? -1) < events) longest.set(key, { execution, events });
  }
  const written: string[] = [];
  for (const [key, { execution }] of longest) {
    const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    writeFileSync(join(dir, `${key}.binpb`), proto.temporal.api.history.v1.History.encode(history).finish());
    written.push(key);
  }
  return written.sort();
}

/** Whether a mailing's workflow was started for the electronic channel (its input's `electronic`, issue 54). */
async function isElectronic(client: Client, execution: WorkflowExecutionInfo): Promise<boolean> {
  const { history } = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId: execution.workflowId, runId: execution.runId },
    maximumPageSize: 1,
  });
  const input = history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
  return !!input && Buffer.from(input).toString('utf8').includes('"electronic":{"fallback":');
}

function pathOf(execution: WorkflowExecutionInfo, electronic = false): string {
  const attributes = execution.typedSearchAttributes;
  const state = execution.status.name.toLowerCase();
  switch (execution.type) {
    case 'mailing': {
      const test = attributes.get(MAILING_TEST) ? 'test' : 'live';
      return `mailing-${electronic ? 'electronic-' : ''}${test}-${attributes.get(MAILING_MODE) ?? 'unknown'}-${attributes.get(MAILING_STATUS) ?? 'unknown'}-${state}`;
    }
    case 'webhookDelivery':
      return `delivery-${attributes.get(DELIVERY_STATUS) ?? 'unknown'}-${state}`;
    case 'mailingBatch':
      // A batch's runs: starting its mailings, then counting until they are final (continued as new), the last one completed.
      return `mailingBatch-${state}`;
    default:
      // Top-ups differ by the events they received: one file per history length.
      return `${execution.type}-${state}-${execution.historyLength}-events`;
  }
}
