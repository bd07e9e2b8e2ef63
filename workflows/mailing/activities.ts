/** The activities of a mailing's workflow, with the options each kind of work runs under. */
import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { RECORD_WAIT } from '../../domain/mailings/creation-protocol.js';
import { deliveriesQueue, printingQueue } from '../contract.js';

/**
 * The task queue of a kind of work that has workers of its own (WORKER_ROLES, docs/operators.md):
 * `<queue>-printing` (what needs the browser) and `<queue>-deliveries` (first webhook attempts).
 * Read when an activity is scheduled (the options below are spread at each call, which reads this
 * getter): the mailing's own queue is only known inside the workflow.
 */
function ownQueue(queue: (mainQueue: string) => string): string {
  return queue(workflowInfo().taskQueue);
}

/** Calls `local`'s activity; when its bounded attempts run out, the same one through `regular`. */
function withFallback<A extends object>(local: A, regular: A): A {
  const pick = (side: A, name: string | symbol) => (side as Record<string | symbol, (...args: unknown[]) => Promise<unknown>>)[name]!;
  return new Proxy(local, {
    get:
      (_, name) =>
      async (...args: unknown[]) => {
        try {
          return await pick(local, name)(...args);
        } catch (error) {
          // A refusal of the activity itself (e.g. a missing mailing) is final; time running out is not.
          const refused = error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.nonRetryable;
          if (!(error instanceof ActivityFailure) || refused) throw error;
          return pick(regular, name)(...args);
        }
      },
  });
}

// Short database writes run as local activities: no task-queue round trip between the steps of a
// move, which keeps webhook latency low; they are idempotent, like every activity here. Their
// attempts are bounded (local ones do not show among the UI's pending activities): past two
// minutes, the same write goes on as a regular activity, visible and retried until it succeeds.
export const projection = withFallback(
  proxyLocalActivities<Activities>({ startToCloseTimeout: '30s', scheduleToCloseTimeout: '2m', retry: { initialInterval: '1s', maximumInterval: '30s' } }),
  proxyActivities<Activities>({ startToCloseTimeout: '30s', retry: { initialInterval: '5s', maximumInterval: '5m' } }),
);

// The wait for the record: its timings are the creation protocol's (domain/mailings/creation-protocol.ts).
export const creation = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: RECORD_WAIT.initialIntervalMs,
    backoffCoefficient: RECORD_WAIT.backoffCoefficient,
    maximumInterval: RECORD_WAIT.maximumIntervalMs,
    maximumAttempts: RECORD_WAIT.maximumAttempts,
  },
});

// A proof prints in about a second: a short timeout, so a lost worker's attempt is retried soon.
export const PRINTING: ActivityOptions = {
  startToCloseTimeout: '20s',
  retry: { initialInterval: '1s', maximumInterval: '1m' },
  get taskQueue() {
    return ownQueue(printingQueue);
  },
};
export const printing = proxyActivities<Activities>(PRINTING);
// The proofs of several moves at once (two at most on a paper path): twice a proof's time.
export const PROOFS_TOGETHER: ActivityOptions = {
  startToCloseTimeout: '40s',
  retry: { initialInterval: '1s', maximumInterval: '1m' },
  get taskQueue() {
    return ownQueue(printingQueue);
  },
};

// Filing is retried for as long as the operator does not confirm: the mailing stays `paid`. It
// prints the letter first: printing's queue. The attempt heartbeats (activities/heartbeats.ts): a
// worker killed mid-call is noticed in 20 s, not at the end of the attempt's minute.
export const FILING: ActivityOptions = {
  startToCloseTimeout: '1m',
  heartbeatTimeout: '20s',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
  get taskQueue() {
    return ownQueue(printingQueue);
  },
};
export const filing = proxyActivities<Activities>(FILING);

// Options are given per call (the poll interval is the mailing's): see operatorNews in ./operator.ts.
export const trackingPolls = proxyActivities<Activities>({ startToCloseTimeout: '30s' });

// The first attempt of an event's deliveries, made by the mailing itself: receivers answer within
// 10 s (SPEC.md), the attempts run side by side. A second try covers a lost worker; past it, each
// delivery goes on to its own retry schedule (./moves.ts).
export const DELIVERING: ActivityOptions = {
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumAttempts: 2 },
  get taskQueue() {
    return ownQueue(deliveriesQueue);
  },
};
export const delivering = proxyActivities<Activities>(DELIVERING);

// Sending an electronic letter is retried for as long as the provider does not confirm (its
// maintenance answer, a 5xx, a lost answer): the mailing stays `paid`, and the provider layer looks
// for an earlier sending before each attempt (never two). It prints the letter first: printing's queue.
// The attempt heartbeats, as filing's: a worker killed mid-call is noticed in 20 s, not 2 minutes.
export const SENDING: ActivityOptions = {
  startToCloseTimeout: '2m',
  heartbeatTimeout: '20s',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
  get taskQueue() {
    return ownQueue(printingQueue);
  },
};
export const sending = proxyActivities<Activities>(SENDING);

// A provider's proof: a download, retried while the provider does not hand it yet.
export const PROVIDER_PROOFS: ActivityOptions = {
  startToCloseTimeout: '2m',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '5m' },
};
export const electronicProofs = proxyActivities<Activities>(PROVIDER_PROOFS);
