import { ApplicationFailure, setHandler, type CancellationScope } from '@temporalio/workflow';
import { advanceRefusal, electronicAdvanceRefusal, type MailingStatus, type MoveRefusal, type TestAdvance } from '../../domain/mailings/states.js';
import { advanceUpdate, cancelUpdate, REFUSED_CONFLICT, REFUSED_INVALID } from '../contract.js';
import { projection } from './activities.js';
import { endedAs, moveAlong, moveTo } from './moves.js';
import type { MailingRun } from './run.js';
import { awaitsReturn, returnedDigitally } from './returns.js';

/** A refusal as the update's failure: its type tells the API 409 from 422. */
const refuse = (refusal: MoveRefusal): ApplicationFailure =>
  ApplicationFailure.create({ type: refusal.kind === 'invalid' ? REFUSED_INVALID : REFUSED_CONFLICT, message: refusal.message, nonRetryable: true });

const refusalOf = (run: MailingRun, request: TestAdvance): MoveRefusal | undefined =>
  awaitsReturn(run)
    ? request.status === 'returned'
      ? undefined
      : { kind: 'conflict', message: 'This letter is posted; its returns are handled digitally: only { "status": "returned" } moves it now.' }
    : run.electronic
      ? electronicAdvanceRefusal({ track: run.track, status: run.status, step: run.step, test: run.input.test }, request)
      : advanceRefusal({ mode: run.input.mode, status: run.status, step: run.step, test: run.input.test }, request);

/**
 * The `advance` (test mailings) and `cancel` updates. Registered before the workflow's first await,
 * so an early update is never lost; each waits its turn behind the other moves.
 */
export function handleUpdates(run: MailingRun, filingScope: CancellationScope): void {
  setHandler(
    advanceUpdate,
    (request) =>
      run.exclusively(async () => {
        // Checked again: another move may have run while this one waited its turn.
        const refusal = refusalOf(run, request);
        if (refusal) throw refuse(refusal);
        if (awaitsReturn(run)) await returnedDigitally(run);
        else if (request.status) {
          // An end at the last step: the electronic path's (3) before any fallback, else the paper path's.
          await moveTo(run, request.status, run.last);
        } else {
          // Several steps at once: the search attribute is set once, to where they end (moveAlong).
          const target = request.step ?? run.step + 1;
          const moves: [MailingStatus, number][] = [];
          for (let s = run.step + 1; s <= target; s++) moves.push([run.path[s]!, s]);
          await moveAlong(run, moves);
        }
        return run.latest;
      }),
    {
      // Refused moves are rejected here, so they never enter the workflow's history.
      validator: (request: TestAdvance) => {
        const refusal = refusalOf(run, request);
        if (refusal) throw refuse(refusal);
      },
    },
  );

  // Filing is not one of the exclusive moves: a cancellation never waits behind its retries.
  setHandler(cancelUpdate, () =>
    run.exclusively(async () => {
      if (run.status !== 'paid' || run.filed)
        throw refuse({ kind: 'conflict', message: `Only a paid mailing can be canceled; this one is ${run.filed ? 'filed' : run.status}.` });
      if (!(await projection.cancelShipment(run.endOfPaid()))) {
        throw refuse({ kind: 'conflict', message: 'The letter has already been handed to the postal operator.' });
      }
      filingScope.cancel();
      await endedAs(run, 'canceled');
      return run.latest;
    }),
  );
}
