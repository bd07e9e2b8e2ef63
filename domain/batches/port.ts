import type { BatchWorkflowInput } from './workflow-input.js';

/** A batch's workflow as the domain sees it (temporal/batches.ts). */
export interface BatchPort {
  /**
   * Starts a recorded batch's workflow, which starts its mailings' workflows (workflows/batch.ts):
   * true when started, false when it had been already (a batch runs once).
   */
  start(input: BatchWorkflowInput): Promise<boolean>;
}
