/** The domain's AccessPort (domain/access/port.ts) on a Temporal client. */
import type { AccessPort } from '../domain/access/port.js';
import { START_DEADLINE_MS } from '../domain/mailings/creation-protocol.js';
import { productionAccessCheck } from '../workflows/index.js';
import { productionCheckWorkflowId } from '../workflows/contract.js';
import { type TemporalCalls, unreachable } from './calls.js';

export function temporalAccess({ client, config, withDeadline }: TemporalCalls): AccessPort {
  return {
    async startProductionCheck(requestId, siret) {
      try {
        await withDeadline(START_DEADLINE_MS, () =>
          client.workflow.start(productionAccessCheck, {
            taskQueue: config.taskQueue,
            workflowId: productionCheckWorkflowId(requestId),
            args: [requestId, siret],
            staticSummary: `production access check ${siret}`,
            staticDetails: `request ${requestId}: the directory could not be reached when it was made`,
          }),
        );
      } catch {
        throw unreachable();
      }
    },
  };
}
