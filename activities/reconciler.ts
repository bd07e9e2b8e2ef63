import type { Deps } from '../domain/deps.js';
import { resumeUnattendedMailings, type ReconcileOptions } from '../domain/mailings/reconcile.js';

/** The reconciler's one activity (domain/mailings/reconcile.ts), run by the `mailing-reconciler` Schedule. */
export function reconcilerActivities(deps: Deps | undefined) {
  return {
    async resumeUnattendedMailings(options: ReconcileOptions = {}): Promise<{ checked: number; resumed: string[] }> {
      if (!deps) throw new Error('this worker has no Temporal client for the reconciler');
      return resumeUnattendedMailings(deps, options);
    },
  };
}
