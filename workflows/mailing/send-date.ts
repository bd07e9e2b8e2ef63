import { condition, setCurrentDetails } from '@temporalio/workflow';
import { filingInstantMs } from '../../domain/mailings/send-date-filing-time.js';
import type { MailingRun } from './run.js';

/**
 * Since when a paid mailing has been due for filing: its creation, or the start of its send day
 * when it waits for one. The stale-paid rule (workflows/mailing.ts) measures from here, so a
 * mailing resumed while it waits for its date is not refunded for its wait.
 */
export function dueSinceMs(run: MailingRun): number {
  const created = Date.parse(run.latest.createdAt);
  return run.input.sendAt ? Math.max(created, filingInstantMs(run.input.sendAt)) : created;
}

/**
 * A mailing with a send date stays `paid` until 00:00 Europe/Paris that day: one durable timer
 * (no polling), which a cancellation (live or test) or an `advance` (test mailings) ends at once.
 * No wait for a mailing sent at once, or already filed (resumed past payment).
 */
export async function awaitSendDate(run: MailingRun): Promise<void> {
  const { sendAt } = run.input;
  if (!sendAt || run.filed) return;
  const waitMs = filingInstantMs(sendAt) - Date.now();
  if (waitMs <= 0) return;
  setCurrentDetails(
    `Waiting for its send date ${sendAt}: filed at 00:00 Europe/Paris, cancelable free until then${run.input.test ? '; an advance skips the wait' : ''}.`,
  );
  await condition(() => run.final || run.step > 0, waitMs);
}
