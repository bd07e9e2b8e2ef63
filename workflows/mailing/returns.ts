import { CancellationScope, condition, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import { DIGITAL_RETURN_REASON, DIGITAL_RETURN_STEP, DIGITAL_RETURN_WINDOW_MS, type MailingStatus, type Mode } from '../../domain/mailings/states.js';
import { trackingQueue } from '../contract.js';
import { trackingPolls } from './activities.js';
import { moveTo } from './moves.js';
import { days, type MailingRun } from './run.js';

/**
 * A simple letter whose returns are handled digitally (options.returnedMail, issue 55): after
 * `posted` (its end otherwise), the operator may still report it undeliverable (Maileva's N10):
 * it then ends `returned` at step 3, its last step becoming 3, with the `return` proof and the
 * reason in mailing.returned. Only those letters' runs reach here (MailingRun.digitalReturns).
 */
export function awaitsReturn(run: MailingRun): boolean {
  return run.digitalReturns && run.status === 'posted' && run.step < DIGITAL_RETURN_STEP;
}

/** The move of a digital return: `returned` at step 3 (after `posted` at 2), with its reason. */
export async function returnedDigitally(run: MailingRun, reason = DIGITAL_RETURN_REASON): Promise<void> {
  await moveTo(run, 'returned', DIGITAL_RETURN_STEP, true, { lastStep: DIGITAL_RETURN_STEP, details: { reason } });
}

const windowOf = (run: MailingRun): number => run.input.returnWindowMs ?? DIGITAL_RETURN_WINDOW_MS;

/**
 * A live letter: asked of the operator on the tracking queue (as operatorNews), only a return
 * being news, until the return window ends: then it stays `posted`.
 */
export async function awaitOperatorReturn(run: MailingRun): Promise<void> {
  const { input } = run;
  const pollMs = Math.max(100, input.operatorPollMs ?? 60_000);
  const windowMs = windowOf(run);
  setCurrentDetails(`Posted; its returns are handled digitally: asking the operator every ${pollMs} ms for a return, for ${days(windowMs)}.`);
  const args: [string, Mode, MailingStatus, 'return'] = [input.shipmentId, input.mode, 'posted', 'return'];
  const questions = new CancellationScope();
  const window = new CancellationScope();
  const news = questions.run(() =>
    trackingPolls.checkOperatorStatus.executeWithOptions(
      {
        taskQueue: trackingQueue(workflowInfo().taskQueue),
        startToCloseTimeout: '30s',
        summary: 'watching for a return',
        retry: { initialInterval: pollMs, backoffCoefficient: 1, maximumInterval: pollMs },
      },
      args,
    ),
  );
  const ended = window.run(() => sleep(windowMs));
  const first = await Promise.race([
    news.then(
      () => 'returned' as const,
      () => 'unknown' as const,
    ),
    ended.then(() => 'window' as const),
  ]);
  if (first === 'returned') {
    window.cancel();
    await ended.catch(() => undefined);
    await run.exclusively(() => returnedDigitally(run));
    return;
  }
  questions.cancel();
  await news.catch(() => undefined);
}

/** A test letter: the sandbox's `advance` with `{ status: "returned" }` returns it (./updates.ts), until the window ends. */
export async function awaitTestReturn(run: MailingRun): Promise<void> {
  const windowMs = windowOf(run);
  setCurrentDetails(`Posted; its returns are handled digitally: { "status": "returned" } returns it, for ${days(windowMs)}.`);
  await condition(() => run.status === 'returned', windowMs);
}
