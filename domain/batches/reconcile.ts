import { logger } from '../../lib/logger.js';
import type { Deps } from '../deps.js';
import { RECONCILER_GRACE_MS } from '../mailings/creation-protocol.js';
import { batchWorkflowInput } from './workflow-input.js';

/** Unfinished batches looked at per run of the reconciler. */
const BATCHES_PER_RUN = 100;

/**
 * A batch recorded whose workflow never started (the API process died between the commit and the
 * start, or Temporal was down): started now. Its mailings' workflows are started by the mailings'
 * own reconciliation meanwhile; the batch's own starts of them are then "already started", which
 * it takes as done. A batch whose workflow is running, or ran, is not started again.
 */
export async function resumeUnattendedBatches(deps: Deps, options: { accountId?: string } = {}): Promise<string[]> {
  const query = deps
    .db('mailing_batches')
    .whereNull('finished_at')
    .andWhere('created_at', '<', new Date(Date.now() - RECONCILER_GRACE_MS))
    .orderBy('created_at', 'desc')
    .limit(BATCHES_PER_RUN)
    .select('id', 'account_id', 'test');
  if (options.accountId) query.andWhere({ account_id: options.accountId });
  const started: string[] = [];
  for (const batch of (await query) as { id: string; account_id: string; test: boolean }[]) {
    if (await deps.workflows.batches.start(batchWorkflowInput(deps.config, batch))) {
      started.push(batch.id);
      logger.warn({ batchId: batch.id }, 'reconciler: batch without its workflow, started');
    }
  }
  return started;
}
