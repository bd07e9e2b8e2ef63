/**
 * The baseline of the live-mailing throughput: a workflow that does nothing but what one live AR
 * mailing asks of Temporal, in its order: its local and regular activities and its search-attribute
 * upserts (bundled by the bench's own worker, started with the mailing's search attributes).
 */
import { proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { MAILING_STATUS } from '../workflows/contract.js';

interface Noop {
  noop(): Promise<void>;
}

/** One thing a mailing's history asks of Temporal, in the order it asked. */
export type BareStep = 'local' | 'activity' | 'upsert';

const regular = proxyActivities<Noop>({ startToCloseTimeout: '10s' });
const local = proxyLocalActivities<Noop>({ startToCloseTimeout: '10s' });

export async function bareActivities(steps: BareStep[]): Promise<void> {
  for (const [i, step] of steps.entries()) {
    if (step === 'local') await local.noop();
    else if (step === 'activity') await regular.noop();
    else upsertSearchAttributes([{ key: MAILING_STATUS, value: `step-${i}` }]);
  }
}
