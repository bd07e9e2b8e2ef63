import type { Deps } from '../domain/deps.js';
import { resumeUnattendedMailings, type ReconcileOptions } from '../domain/mailings/reconcile.js';
import { resumeUnattendedBatches } from '../domain/batches/reconcile.js';

/** The reconciler's one activity (domain/mailings/reconcile.ts), run by the `mailing-reconciler` Schedule. */
export function reconcilerActivities(deps: Deps | undefined) {
  return {
    async resumeUnattendedMailings(options: ReconcileOptions = {}): Promise<{ checked: number; resumed: string[] }> {
      if (!deps) throw new Error('this worker has no Temporal client for the reconciler');
      const result = await resumeUnattendedMailings(deps, options);
      // Batches too (domain/batches/reconcile.ts): the result keeps its shape for the workflow's history.
      await resumeUnattendedBatches(deps, options);
      return result;
    },
  };
}
