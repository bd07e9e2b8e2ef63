/**
 * The domain's MailingPort (domain/mailings/port.ts) on a Temporal client: a mailing's workflow
 * started by function with the contract's options, its updates executed by definition, their
 * refusals told apart by the ApplicationFailure's type.
 */
import { WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, WorkflowNotFoundError } from '@temporalio/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { logger } from '../lib/logger.js';
import { Conflict, serviceUnavailable, Unprocessable } from '../domain/errors.js';
import { LATER_START_RETRIES_MS, START_DEADLINE_MS } from '../domain/mailings/creation-protocol.js';
import type { MailingPort } from '../domain/mailings/port.js';
import type { Mailing } from '../domain/mailings/mailing.js';
import type { MailingStart } from '../domain/mailings/workflow-input.js';
import { mailing } from '../workflows/index.js';
import { advanceUpdate, cancelUpdate, electronicHintSignal, mailingStartOptions, mailingWorkflowId, REFUSED_INVALID } from '../workflows/contract.js';
import { isEnded, type TemporalCalls } from './calls.js';
import { channelReady, type DeadlineScope } from './fast-path.js';

/** How long an update may take before the API answers 503 (a retry with the same Idempotency-Key is the same update). */
const UPDATE_DEADLINE_MS = 15_000;

/** An update's refusal in the domain's words: by the ApplicationFailure's type; never an unbounded wait. */
async function update(withDeadline: DeadlineScope, run: () => Promise<Mailing>): Promise<Mailing> {
  try {
    return await withDeadline(UPDATE_DEADLINE_MS, run);
  } catch (error) {
    if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError)
      throw serviceUnavailable('The mailing did not answer in time; retry with the same Idempotency-Key.');
    if (error instanceof WorkflowUpdateFailedError) {
      const cause = error.cause;
      const message = cause?.message ?? 'The mailing cannot make this move.';
      if (cause instanceof ApplicationFailure && cause.type === REFUSED_INVALID) throw new Unprocessable(message);
      throw new Conflict(message);
    }
    if (isEnded(error)) throw new Conflict('This mailing has reached its final state.');
    throw serviceUnavailable('The mailing service is unreachable; please retry.');
  }
}

/** Starts answered before they land, at most: beyond, the API starts first (back-pressure). */
const MAX_PENDING_STARTS = 256;
/**
 * Of those, how many are sent to Temporal at once. A few suffice to keep up (a start takes a few
 * milliseconds), and more only add contention on the server: with 32 at once, the dev server's
 * starts slowed so much that the answers waited longer than when they waited for their start.
 */
const CONCURRENT_LATER_STARTS = 8;

/** The MailingPort of the domain, on a Temporal client. */
export function temporalMailings({ client, config, withDeadline }: TemporalCalls): MailingPort {
  const mailingHandle = (mailingId: string): WorkflowHandle<typeof mailing> => client.workflow.getHandle(mailingWorkflowId(mailingId));
  /** Starts of answered mailings, waiting for one of the CONCURRENT_LATER_STARTS senders. */
  const laterStarts: MailingStart[] = [];
  let sending = 0;

  const startMailing = async (start: MailingStart, options: { restart?: boolean } = {}): Promise<void> => {
    await withDeadline(START_DEADLINE_MS, () =>
      client.workflow.start(mailing, {
        ...mailingStartOptions(start),
        taskQueue: config.taskQueue,
        // Only the reconciler starts a closed one again.
        ...(options.restart && { workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE }),
      }),
    );
  };

  /** Started, or started already (by the answer's own start, or another process): either way running or run. */
  const ensureStarted = async (start: MailingStart): Promise<void> => {
    try {
      await startMailing(start);
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };

  /** An update to a mailing; one whose workflow is not there yet (answered before its start) is started, then updated. */
  const updateMailing = (start: MailingStart, run: (handle: WorkflowHandle<typeof mailing>) => Promise<Mailing>): Promise<Mailing> =>
    update(withDeadline, async () => {
      const handle = mailingHandle(start.input.shipmentId);
      try {
        return await run(handle);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        await ensureStarted(start);
        return run(handle);
      }
    });

  /** One sender: takes the waiting starts one by one, each tried a few times; the reconciler takes what still fails. */
  const sendLaterStarts = async (): Promise<void> => {
    sending += 1;
    try {
      for (let start = laterStarts.shift(); start; start = laterStarts.shift()) {
        for (let attempt = 0; ; attempt++) {
          try {
            await ensureStarted(start);
            break;
          } catch (error) {
            const wait = LATER_START_RETRIES_MS[attempt];
            if (wait === undefined) {
              logger.error(
                { err: error, shipmentId: start.input.shipmentId },
                'mailing recorded but its workflow could not start; the reconciler will start it',
              );
              break;
            }
            await sleep(wait);
          }
        }
      }
    } finally {
      sending -= 1;
    }
  };

  return {
    start: (input, reference) => startMailing({ input, reference }),

    startOnce: ensureStarted,

    async restart(input, reference) {
      try {
        await startMailing({ input, reference }, { restart: true });
        return true;
      } catch (error) {
        // Started meanwhile by someone else: attended after all.
        if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw error;
      }
    },

    readyToStartLater: () => laterStarts.length + sending < MAX_PENDING_STARTS && channelReady(client.connection),

    startLater(start) {
      laterStarts.push(start);
      if (sending < CONCURRENT_LATER_STARTS) void sendLaterStarts();
    },

    async isRunning(mailingId) {
      try {
        return (await mailingHandle(mailingId).describe()).status.name === 'RUNNING';
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },

    async end(mailingId, reason) {
      await mailingHandle(mailingId).terminate(reason);
    },

    advance: (start, advance, updateId) => updateMailing(start, (handle) => handle.executeUpdate(advanceUpdate, { args: [advance], updateId })),
    cancel: (start, updateId) => updateMailing(start, (handle) => handle.executeUpdate(cancelUpdate, { args: [null], updateId })),

    async hint(mailingId) {
      try {
        await mailingHandle(mailingId).signal(electronicHintSignal);
        return true;
      } catch (error) {
        // Ended or never started: nothing to tell (a callback is only a hint).
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },
  };
}
