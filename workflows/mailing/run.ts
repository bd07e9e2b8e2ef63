import { condition, patched } from '@temporalio/workflow';
import type { Mailing } from '../../domain/mailings/mailing.js';
import { ELECTRONIC_LAST_STEP, isFinalOn, pathOf, type Fallback, type MailingStatus, type Track } from '../../domain/mailings/states.js';
import type { MailingWorkflowInput } from '../../domain/mailings/workflow-input.js';

/** The patch of the electronic channel (issue 54): its path, sandbox and provider; asked only by electronic mailings. */
export const ELECTRONIC_CHANNEL_PATCH = 'electronic-channel';
/** The patch of returns handled digitally (issue 55): a posted simple letter watched for its return; asked only by those letters. */
export const DIGITAL_RETURNS_PATCH = 'digital-returns';
/**
 * The patch of moves reported together (issue 57, part 3): a paper letter's steps reached at once
 * recorded by one local activity and their proofs printed by one activity; asked only when a report
 * (or a sandbox advance) moves a paper mailing more than one step.
 */
export const MOVES_TOGETHER_PATCH = 'moves-together';

/**
 * The state of one mailing's run, shared by its main path and its update handlers. Moves run one
 * at a time (`exclusively`); handlers see `status` and `step` change behind the main path's back,
 * so read them through this object, never from a copy.
 */
export class MailingRun {
  /** An electronic mailing's fallback (its path is the electronic one); undefined for paper. */
  readonly electronic: { fallback: Fallback } | undefined;
  /** A simple letter whose returns are handled digitally (options.returnedMail): once posted, it may still end returned at step 3. */
  readonly digitalReturns: boolean;
  /** An electronic mailing whose paper fallback began: it goes on by post from step 4. */
  fallbackUsed = false;
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
    // Only electronic mailings ask for the patch: a paper mailing's history has no marker of it.
    this.electronic = input.electronic && patched(ELECTRONIC_CHANNEL_PATCH) ? input.electronic : undefined;
    // Likewise: only those letters' histories have this marker.
    this.digitalReturns = input.returnedMail === 'digital' && input.mode === 'simple' && patched(DIGITAL_RETURNS_PATCH);
  }

  /** Where the mailing goes: its mode, and for an electronic one its fallback and whether it began. */
  get track(): Track {
    if (!this.electronic) return { mode: this.input.mode };
    return { mode: this.input.mode, channel: 'electronic', fallback: this.electronic.fallback, fallbackUsed: this.fallbackUsed };
  }

  /** Its path, the index being the step (after a fallback, step 3 is the electronic end it came from). */
  get path(): MailingStatus[] {
    const end = this.fallbackUsed ? this.latest?.events.find((e) => e.step === ELECTRONIC_LAST_STEP)?.status : undefined;
    return pathOf(this.track, end);
  }

  /** The last step of its path, where every ending (final or off-path) is recorded; an electronic one's grows when its fallback begins. */
  get last(): number {
    return this.path.length - 1;
  }

  get final(): boolean {
    return isFinalOn(this.track, this.status);
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
