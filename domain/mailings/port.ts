import type { Mailing } from './mailing.js';
import type { TestAdvance } from './states.js';
import type { MailingStart, MailingWorkflowInput } from './workflow-input.js';

/**
 * A mailing's workflow as the domain sees it (the Temporal client is behind it,
 * temporal/mailings.ts). Temporal unreachable: Unavailable.
 */
export interface MailingPort {
  /**
   * Starts a mailing's workflow (bounded in time). A mailing whose workflow has already run is not
   * started again (WorkflowExecutionAlreadyStarted).
   */
  start(input: MailingWorkflowInput, reference: string): Promise<void>;
  /** Starts a mailing's workflow unless it runs or has run already (a batch's chunk, retried or replayed): either way, done. */
  startOnce(start: MailingStart): Promise<void>;
  /**
   * The reconciler's start of a mailing whose workflow has ended or never started: true when
   * started, false when another start got there first.
   */
  restart(input: MailingWorkflowInput, reference: string): Promise<boolean>;
  /**
   * Whether a recorded mailing may be answered before its workflow starts: the connection to
   * Temporal is up and few such starts are pending. When not, the caller starts the workflow first,
   * so that an unreachable Temporal is a 503 with nothing recorded or charged.
   */
  readyToStartLater(): boolean;
  /**
   * Starts a recorded mailing's workflow after the answer, retrying a few times; one still not
   * started is resumed by the reconciler (./reconcile.ts).
   */
  startLater(start: MailingStart): void;
  /** Whether a mailing's workflow is running now (false when it has ended or never started). */
  isRunning(mailingId: string): Promise<boolean>;
  /** Ends a mailing's workflow that will never have its record. */
  end(mailingId: string, reason: string): Promise<void>;
  /**
   * The advance and cancel updates; refusals are Conflict or Unprocessable. `updateId` (from the
   * request's Idempotency-Key) makes a retried call the same update: it runs once. A mailing whose
   * workflow is not started yet is started first.
   */
  advance(start: MailingStart, advance: TestAdvance, updateId?: string): Promise<Mailing>;
  cancel(start: MailingStart, updateId?: string): Promise<Mailing>;
  /**
   * Tells an electronic mailing's workflow that its provider has news (a callback): it reads the
   * letter's state again at once. False when no workflow of that mailing is running.
   */
  hint(mailingId: string): Promise<boolean>;
}
