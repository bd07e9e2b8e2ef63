import { condition, setCurrentDetails } from '@temporalio/workflow';
import { TEST_MAILING_IDLE_LIMIT_MS } from '../contract.js';
import { failPaid, moveTo } from './moves.js';
import { days, type MailingRun } from './run.js';

/**
 * A test mailing moves only through the `advance` update. Left alone for 30 days it ends in
 * `error` (a later advance gets 409, like any final mailing): no sandbox execution stays open forever.
 */
export async function awaitTestAdvances(run: MailingRun): Promise<void> {
  const idleLimitMs = run.input.testIdleLimitMs ?? TEST_MAILING_IDLE_LIMIT_MS;
  while (!run.final) {
    const at = run.step;
    setCurrentDetails(`Waiting for a test advance from step ${run.step} (${run.status}); ends in error after ${days(idleLimitMs)} without one.`);
    // Re-armed once per advance, not per step of it: one timer for `{ step: 5 }`.
    if (await condition(() => (run.step !== at && !run.busy) || run.final, idleLimitMs)) continue;
    await run.exclusively(async () => {
      if (run.final) return;
      if (run.status === 'paid') await failPaid(run);
      else await moveTo(run, 'error', run.last);
    });
  }
}
