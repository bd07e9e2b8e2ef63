/**
 * The creation protocol's timings, in one place (DESIGN.md §1; `createMailing` in ./create.ts).
 * A mailing is recorded (and paid) and its workflow started, in one of two orders:
 * - record, answer, then start: the start is retried a few times after the answer
 *   (LATER_START_RETRIES_MS, each bounded by START_DEADLINE_MS); what still fails is started by the
 *   reconciler, which leaves mailings younger than RECONCILER_GRACE_MS alone;
 * - start, then record: the workflow waits for its record (RECORD_WAIT) and, when none comes, ends
 *   and leaves a tombstone that makes a late record fail, so nothing is charged without a workflow.
 * How these must relate is checked by test/unit/creation-protocol.test.ts.
 * Pure constants: the mailing workflow imports them too.
 */

/** Bound on each statement that records a mailing (statement_timeout in its transaction). */
export const RECORD_STATEMENT_TIMEOUT_MS = 5000;
/** Statements in the longest record: SET LOCAL, the debit, the mailing with its first event, the idempotent answer. */
export const RECORD_STATEMENTS = 4;
/** The longest a record can take once it has begun. */
export const RECORD_MAX_MS = RECORD_STATEMENTS * RECORD_STATEMENT_TIMEOUT_MS;

/** How long the API waits for a workflow start before giving up (then nothing is recorded or charged). */
export const START_DEADLINE_MS = 5000;

/** Waits between the attempts of a start made after the answer; then the reconciler takes over. */
export const LATER_START_RETRIES_MS = [500, 2000, 5000];

/**
 * The workflow's wait for its record: the retry policy of `committedShipment` (a local activity).
 * The API records right after the start, usually within milliseconds, so the first retries are quick.
 */
export const RECORD_WAIT = { initialIntervalMs: 50, backoffCoefficient: 1.5, maximumIntervalMs: 2000, maximumAttempts: 25 } as const;

/** The time RECORD_WAIT's attempts are spread over: past it, the record never comes (the tombstone is laid). */
export function recordWaitMs(
  wait: { initialIntervalMs: number; backoffCoefficient: number; maximumIntervalMs: number; maximumAttempts: number } = RECORD_WAIT,
): number {
  let total = 0;
  for (let retry = 0; retry < wait.maximumAttempts - 1; retry++) {
    total += Math.min(wait.initialIntervalMs * wait.backoffCoefficient ** retry, wait.maximumIntervalMs);
  }
  return total;
}

/** The longest a start made after the answer keeps trying (each attempt bounded by START_DEADLINE_MS). */
export function laterStartWindowMs(): number {
  return LATER_START_RETRIES_MS.reduce((sum, wait) => sum + wait, 0) + (LATER_START_RETRIES_MS.length + 1) * START_DEADLINE_MS;
}

/** A mailing younger than this may still be starting or recording: the reconciler leaves it alone. */
export const RECONCILER_GRACE_MS = 2 * 60_000;
