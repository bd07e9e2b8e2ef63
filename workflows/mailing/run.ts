import { condition } from '@temporalio/workflow';
import type { Mailing } from '../../domain/mailings/mailing.js';
import { isFinal, PATHS, type MainStatus, type MailingStatus } from '../../domain/mailings/states.js';
import type { MailingWorkflowInput } from '../../domain/mailings/workflow-input.js';

/**
 * The state of one mailing's run, shared by its main path and its update handlers. Moves run one
 * at a time (`exclusively`); handlers see `status` and `step` change behind the main path's back,
 * so read them through this object, never from a copy.
 */
export class MailingRun {
  readonly path: MainStatus[];
  /** The last step of the mode's path, where every ending (final or off-path) is recorded. */
  readonly last: number;
  status: MailingStatus = 'paid';
  step = 0;
  /** The mailing as the projection last returned it: what events carry and updates answer. */
  latest!: Mailing;
  /** Handlers are registered before the first await; they wait (busy) until mailing.created has gone out. */
  busy = true;
  /** Handed to the postal operator (or resumed past payment): too late to cancel. */
  filed = false;
  /** First webhook attempts still under way (and the retry schedules they start): the run ends after them. */
  readonly deliveries: Promise<void>[] = [];

  constructor(readonly input: MailingWorkflowInput) {
    this.path = PATHS[input.mode];
    this.last = this.path.length - 1;
  }

  get final(): boolean {
    return isFinal(this.input.mode, this.status);
  }

  get canceled(): boolean {
    return this.status === 'canceled';
  }

  /** Where and when a paid mailing ends: its last step, now. */
  endOfPaid(): { shipmentId: string; step: number; at: string } {
    return { shipmentId: this.input.shipmentId, step: this.last, at: new Date().toISOString() };
  }

  /** Runs one move at a time, whichever handler asks. */
  async exclusively<T>(work: () => Promise<T>): Promise<T> {
    await condition(() => !this.busy);
    this.busy = true;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }
}

/** A run's days, as the UI's current details say them. */
export const days = (ms: number): string => `${Math.round((ms / 86_400_000) * 10) / 10} days`;
