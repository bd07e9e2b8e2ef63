import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import { movesOn, type Mode, type MailingStatus } from '../../domain/mailings/states.js';
import { FILING_REJECTED, TRACKING_SILENCE_LIMIT_MS, trackingQueue } from '../contract.js';
import { FILING, filing, trackingPolls } from './activities.js';
import { failPaid, moveAlong, moveTo } from './moves.js';
import { days, type MailingRun } from './run.js';
import { returnedDigitally } from './returns.js';

/**
 * Where a filed letter's tracking starts: ask the operator once, then poll (as after any move); poll
 * at once (the filing just asked, and heard nothing beyond `printed`); or a status it already reported.
 */
export type TrackingStart = 'ask' | 'poll' | { reported: MailingStatus };

/**
 * Files a live letter with the postal operator (retried while it does not confirm, cancelable
 * until an attempt reaches it) and ends a letter the operator can never take in `error`, refunded.
 * The filing asks the operator's news as well: what it already reports moves with `printed`, in
 * one local activity. A filing that answers 'filed' alone (recorded before this, or run by an
 * activity worker of before) is followed as then: ask first.
 */
export async function fileLetter(
  run: MailingRun,
  filingScope: CancellationScope,
): Promise<{ outcome: 'filed' | 'canceled' | 'rejected'; tracking: TrackingStart }> {
  let outcome: 'filed' | 'canceled' | 'rejected' = run.filed ? 'filed' : 'canceled';
  let reported: MailingStatus | null | undefined;
  let reason = '';
  try {
    if (!run.filed && !run.canceled) {
      setCurrentDetails('Filing with the postal operator: retried while it does not confirm; cancelable until an attempt reaches it.');
      const filed = await filingScope.run(() =>
        filing.fileWithOperator.executeWithOptions({ ...FILING, summary: `file the ${run.input.mode} letter with the operator` }, [
          run.input.shipmentId,
          { readNews: true },
        ]),
      );
      if (typeof filed === 'string') outcome = filed;
      else {
        outcome = 'filed';
        reported = filed.reported;
      }
    }
  } catch (error) {
    if (isCancellation(error) && run.canceled) outcome = 'canceled';
    else if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === FILING_REJECTED) {
      outcome = 'rejected';
      reason = error.cause.message;
    } else throw error;
  }
  let tracking: TrackingStart = reported === undefined ? 'ask' : reported === null ? 'poll' : { reported };
  if (outcome === 'rejected') await run.exclusively(() => failPaid(run, { reason }));
  if (outcome === 'filed' && run.status === 'paid') {
    await run.exclusively(async () => {
      run.filed = true;
      // A return reported before we saw the letter posted takes followOperator's own path.
      if (reported && !(run.digitalReturns && reported === 'returned')) {
        await moveAlong(run, [['printed', 1], ...movesOn(run.track, 'printed', reported)]);
        tracking = 'ask';
      } else await moveTo(run, 'printed', 1);
    });
  }
  return { outcome, tracking };
}

/** A filed letter moves as the operator reports, several reported steps one by one, until final. */
export async function followOperator(run: MailingRun, start: TrackingStart = 'ask'): Promise<void> {
  let from = start;
  while (!run.final) {
    const reported = typeof from === 'object' ? from.reported : await operatorNews(run, from === 'ask');
    from = 'ask';
    await run.exclusively(async () => {
      // A letter whose returns are handled digitally, reported back before we saw it posted: posted first, then returned at step 3.
      if (run.digitalReturns && reported === 'returned') {
        for (const [next, nextStep] of movesOn(run.track, run.status, 'posted')) await moveTo(run, next, nextStep, false);
        await returnedDigitally(run);
        return;
      }
      // Along the mode's path; an electronic letter's paper fallback from step 4 (movesOn).
      await moveAlong(run, movesOn(run.track, run.status, reported));
    });
  }
}

/**
 * The operator's next news of the letter, asked on the tracking task queue: each question is a
 * short activity and its retry policy the polling schedule, so a letter in transit for weeks holds
 * no worker slot. Thirty days of silence mean its tracking is lost: `error`.
 */
async function operatorNews(run: MailingRun, askFirst: boolean): Promise<MailingStatus> {
  const { input } = run;
  const pollMs = Math.max(100, input.operatorPollMs ?? 60_000);
  const silenceLimitMs = input.trackingSilenceLimitMs ?? TRACKING_SILENCE_LIMIT_MS;
  setCurrentDetails(`Asking the postal operator every ${pollMs} ms for news after ${run.status}; ${days(silenceLimitMs)} of silence end in error.`);
  const question = {
    taskQueue: trackingQueue(workflowInfo().taskQueue),
    startToCloseTimeout: '30s',
    summary: `tracking after ${run.status}`,
  };
  const args: [string, Mode, MailingStatus] = [input.shipmentId, input.mode, run.status];
  // Asked once first: when the operator already has news, no deadline timer is needed. Not when
  // the filing has just asked.
  if (askFirst) {
    try {
      return await trackingPolls.checkOperatorStatus.executeWithOptions({ ...question, retry: { maximumAttempts: 1 } }, args);
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
    }
  }
  // Then again on the poll interval, raced with the deadline, a timer of the workflow: it counts
  // workflow time whatever the retries do, and whichever ends first cancels the other.
  const questions = new CancellationScope();
  const deadline = new CancellationScope();
  const news = questions.run(() =>
    trackingPolls.checkOperatorStatus.executeWithOptions(
      { ...question, retry: { initialInterval: pollMs, backoffCoefficient: 1, maximumInterval: pollMs } },
      args,
    ),
  );
  const silence = deadline.run(() => sleep(silenceLimitMs));
  const first = await Promise.race([news.then((reported) => ({ reported })), silence.then(() => undefined)]);
  if (first) {
    deadline.cancel();
    await silence.catch(() => undefined);
    return first.reported;
  }
  questions.cancel();
  await news.catch(() => undefined);
  return 'error';
}
