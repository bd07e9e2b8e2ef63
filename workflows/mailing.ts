import { allHandlersFinished, CancellationScope, condition } from '@temporalio/workflow';
import type { Mailing } from '../domain/mailings/mailing.js';
import type { MailingWorkflowInput } from '../domain/mailings/workflow-input.js';
import { creation, projection } from './mailing/activities.js';
import { announce, announceRecord, failPaid } from './mailing/moves.js';
import { electronicLetter } from './mailing/electronic.js';
import { fileLetter, followOperator } from './mailing/operator.js';
import { MailingRun } from './mailing/run.js';
import { awaitTestAdvances } from './mailing/sandbox.js';
import { awaitOperatorReturn, awaitsReturn, awaitTestReturn } from './mailing/returns.js';
import { awaitSendDate, dueSinceMs } from './mailing/send-date.js';
import { handleUpdates } from './mailing/updates.js';

/** A paid mailing still unfiled this long after its creation (or its send date) is not posted late: it is refunded. */
const STALE_PAID_LIMIT_MS = 7 * 24 * 3600_000;

/**
 * One mailing, from payment to its final state. Each move: the Postgres projection first (so the
 * API can read it), then the search attribute, then the events to the account's webhooks, then any
 * proof it makes available (./mailing/moves.ts). Live mailings are filed with the postal operator
 * and move as it reports (./mailing/operator.ts); test mailings move only through the `advance`
 * update (./mailing/updates.ts, ./mailing/sandbox.ts).
 */
export async function mailing(input: MailingWorkflowInput): Promise<Mailing | null> {
  const run = new MailingRun(input);
  // Filing runs in its own scope: a cancellation the database accepted stops its retries.
  const filingScope = new CancellationScope();
  handleUpdates(run, filingScope);

  if (!(await awaitRecord(run))) return null;
  if (run.latest.status === 'paid') {
    if (input.resumed && Date.now() - dueSinceMs(run) > STALE_PAID_LIMIT_MS) {
      // Resumed by the reconciler long after it was paid: too late to post it; refunded.
      await failPaid(run);
      await Promise.all(run.deliveries);
      return run.latest;
    }
    // A new mailing announced its creation with its record (awaitRecord); a resumed one does now.
    // Only the endpoints declared when the mailing was created hear of its creation.
    if (input.resumed) await announce(run, 'mailing.created', run.latest, { endpointsCreatedBy: run.latest.createdAt });
  } else {
    // Resumed by the reconciler past payment: it goes on from where the projection is.
    run.status = run.latest.status;
    run.step = run.latest.step;
    run.filed = true;
    if (run.electronic) run.fallbackUsed = run.latest.electronic?.fallbackUsed ?? false;
  }
  run.busy = false;
  // A send date: paid until 00:00 Paris that day, on one timer that a cancel or an advance ends.
  await awaitSendDate(run);

  if (!input.test) {
    // An electronic letter goes to its provider (and, as a fallback, by post): ./mailing/electronic.ts.
    if (run.electronic) await electronicLetter(run, filingScope);
    else {
      const { outcome, tracking } = await fileLetter(run, filingScope);
      if (outcome === 'filed') await followOperator(run, tracking);
    }
    // A simple letter whose returns are handled digitally may still come back once posted (./mailing/returns.ts).
    if (awaitsReturn(run)) await awaitOperatorReturn(run);
  } else {
    await awaitTestAdvances(run);
    if (awaitsReturn(run)) await awaitTestReturn(run);
  }
  await condition(() => run.final);
  await condition(allHandlersFinished);
  // Its last events' first attempts, and the retry schedules they start.
  await Promise.all(run.deliveries);
  return run.latest;
}

/**
 * Waits for the API's record of the mailing (the creation protocol, domain/mailings/creation-protocol.ts);
 * a new mailing's `mailing.created` is recorded as the record is read, and its deliveries start (or,
 * recorded by the API with the mailing, is in the input: nothing to wait for).
 * When it never comes, the tombstone makes a late record fail, so nothing is charged for a mailing
 * without its workflow: false. If the record won that race, it is waited for again.
 */
async function awaitRecord(run: MailingRun): Promise<boolean> {
  for (;;) {
    try {
      if (run.input.resumed) run.latest = await creation.committedShipment(run.input.shipmentId);
      else await announceRecord(run);
      return true;
    } catch {
      if ((await projection.abandonShipment(run.input.shipmentId)) === 'abandoned') return false;
    }
  }
}
