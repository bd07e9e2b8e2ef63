import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  setCurrentDetails,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { ElectronicState } from '../../domain/mailings/electronic.js';
import { ELECTRONIC_LAST_STEP, electronicMovesTo, type MailingStatus } from '../../domain/mailings/states.js';
import { ELECTRONIC_REJECTED, electronicHintSignal, FILING_REJECTED, TRACKING_SILENCE_LIMIT_MS, trackingQueue } from '../contract.js';
import { FILING, filing, SENDING, sending, trackingPolls } from './activities.js';
import { failPaid, moveTo } from './moves.js';
import { followOperator } from './operator.js';
import { days, type MailingRun } from './run.js';

/**
 * A live electronic mailing (issue 54), behind the patch `electronic-channel` (./run.ts): sent
 * once to the provider (activities/electronic.ts), followed by polling and by the provider's
 * callbacks (the `electronicHint` signal), and, after refused, unclaimed or bounced with
 * `fallback: "paper"`, the same letter filed with the postal operator and followed as a paper one.
 */
export async function electronicLetter(run: MailingRun, sendingScope: CancellationScope): Promise<void> {
  let hints = 0;
  setHandler(electronicHintSignal, () => void hints++);
  if (run.status === 'paid' && (await sendLetter(run, sendingScope)) !== 'sent') return;
  while (!run.final && !run.fallbackUsed) {
    const reported = await providerNews(run, () => hints);
    await run.exclusively(async () => {
      const moves = electronicMovesTo(run.status, reported);
      for (const [i, [next, step]] of moves.entries()) await moveTo(run, next, step, i === moves.length - 1);
    });
  }
  if (run.final) return;
  // The paper fallback: filed once (its step still the electronic end's), then followed.
  if (run.step === ELECTRONIC_LAST_STEP && (await fileFallback(run)) !== 'filed') return;
  await followOperator(run);
}

/** Sends the letter (retried while the provider does not confirm; cancelable until an attempt claims it); a refusal for good ends it in `error`, refunded. */
async function sendLetter(run: MailingRun, sendingScope: CancellationScope): Promise<'sent' | 'canceled' | 'rejected'> {
  let reason = '';
  let outcome: 'sent' | 'canceled' | 'rejected' = 'canceled';
  try {
    if (!run.canceled) {
      setCurrentDetails('Sending the electronic letter to the provider: retried while it does not confirm; never sent twice.');
      const sent = await sendingScope.run(() =>
        sending.sendElectronicLetter.executeWithOptions({ ...SENDING, summary: `send the electronic ${run.input.mode} letter` }, [run.input.shipmentId]),
      );
      outcome = sent;
    }
  } catch (error) {
    if (isCancellation(error) && run.canceled) outcome = 'canceled';
    else if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === ELECTRONIC_REJECTED) {
      outcome = 'rejected';
      reason = error.cause.message;
    } else throw error;
  }
  if (outcome === 'rejected') await run.exclusively(() => failPaid(run, { reason }));
  if (outcome === 'sent' && run.status === 'paid') {
    await run.exclusively(async () => {
      run.filed = true;
      await moveTo(run, 'sent', 1);
    });
  }
  return outcome;
}

/**
 * The provider's next news of the letter, asked on the tracking task queue as the postal path asks
 * its operator: one short activity whose retry policy is the polling schedule, raced with the
 * silence deadline and with a hint (a callback): a hint asks again at once. Silence ends in error.
 */
async function providerNews(run: MailingRun, hints: () => number): Promise<MailingStatus> {
  const { input } = run;
  const pollMs = Math.max(100, input.operatorPollMs ?? 60_000);
  const silenceLimitMs = input.trackingSilenceLimitMs ?? TRACKING_SILENCE_LIMIT_MS;
  const question = { taskQueue: trackingQueue(workflowInfo().taskQueue), startToCloseTimeout: '30s', summary: `electronic letter after ${run.status}` };
  const current = run.status as ElectronicState;
  const askOnce = async (): Promise<MailingStatus | undefined> => {
    try {
      return await trackingPolls.checkElectronicStatus.executeWithOptions({ ...question, retry: { maximumAttempts: 1 } }, [input.shipmentId, current]);
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      return undefined;
    }
  };
  // The hints an ask answers: those come before it is asked (a hint during an ask asks again).
  let seen = hints();
  const first = await askOnce();
  if (first) return first;
  const deadline = new CancellationScope();
  const silence = deadline.run(() => sleep(silenceLimitMs));
  let silent = false;
  void silence.then(
    () => void (silent = true),
    () => undefined,
  );
  try {
    for (;;) {
      setCurrentDetails(
        `Asking the electronic provider every ${pollMs} ms (or at its callback) for news after ${run.status}; ${days(silenceLimitMs)} of silence end in error.`,
      );
      const questions = new CancellationScope();
      const polled = questions.run(() =>
        trackingPolls.checkElectronicStatus.executeWithOptions(
          { ...question, retry: { initialInterval: pollMs, backoffCoefficient: 1, maximumInterval: pollMs } },
          [input.shipmentId, current],
        ),
      );
      const waiting = new CancellationScope();
      const hinted = waiting
        .run(() => condition(() => hints() !== seen || silent))
        .then(
          () => undefined,
          () => undefined,
        );
      const reported = await Promise.race([polled, hinted]);
      if (reported) {
        waiting.cancel();
        return reported;
      }
      questions.cancel();
      await polled.catch(() => undefined);
      if (silent) return 'error';
      // A callback: asked again at once (a hint only; the provider's answer decides).
      seen = hints();
      const news = await askOnce();
      if (news) return news;
    }
  } finally {
    deadline.cancel();
    await silence.catch(() => undefined);
  }
}

/**
 * Files the fallback's paper letter with the postal operator (step 4 `printed` once filed); a
 * letter it refuses for good ends in `error`, its hold refunded.
 */
async function fileFallback(run: MailingRun): Promise<'filed' | 'rejected'> {
  setCurrentDetails(`The electronic letter ended ${run.status}: filing the same letter by post (fallback), retried while the operator does not confirm.`);
  try {
    await filing.fileWithOperator.executeWithOptions({ ...FILING, summary: `file the ${run.input.mode} fallback letter with the operator` }, [
      run.input.shipmentId,
    ]);
  } catch (error) {
    if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === FILING_REJECTED) {
      const reason = `The postal operator refused the paper fallback letter: ${error.cause.message}`;
      await run.exclusively(() => moveTo(run, 'error', run.last, true, { details: { reason } }));
      return 'rejected';
    }
    throw error;
  }
  await run.exclusively(() => moveTo(run, 'printed', ELECTRONIC_LAST_STEP + 1));
  return 'filed';
}
