import type { Timestamp } from '@temporalio/common';
import { tsToMs } from '@temporalio/common/lib/time.js';

/**
 * Where the time from POST /v1/mailings to its `mailing.created` at the receiver goes, read from the
 * mailing workflow's own history (the server's clock is the machine's: one clock for every mark).
 */

/** A history event as the client returns it: its type's attributes and its time. */
export interface TimedEvent {
  eventTime?: Timestamp | null;
  workflowExecutionStartedEventAttributes?: unknown;
  workflowTaskStartedEventAttributes?: unknown;
  workflowTaskCompletedEventAttributes?: unknown;
}

/** Each stage in ms; they add up to the whole. */
export interface CreatedTimeline {
  /** POST sent → its answer received (the record committed). */
  answer: number;
  /** Answer → the workflow started (the API starts it after answering, DESIGN.md §1). */
  start: number;
  /** Started → its first workflow task picked up by the worker. */
  firstTaskDispatch: number;
  /** The first workflow task, picked up → completed (the worker creates the workflow and runs it to the delivery's scheduling). */
  firstTask: number;
  /** Completed → the webhook received (the delivery activity's dispatch, the signed HTTPS POST). */
  delivery: number;
}

export const TIMELINE_STAGES: Record<keyof CreatedTimeline, string> = {
  answer: 'POST sent → answered',
  start: 'answered → workflow started',
  firstTaskDispatch: 'workflow started → its first task at the worker',
  firstTask: 'the first workflow task (create and run the workflow to the delivery)',
  delivery: 'first task completed → webhook received (activity dispatch, HTTPS POST)',
};

/** The stages of one mailing, from the bench's marks (ms since the epoch) and the workflow's history. */
export function createdTimeline(marks: { sent: number; answered: number; received: number }, events: TimedEvent[]): CreatedTimeline {
  const first = (has: (e: TimedEvent) => unknown): number => {
    const event = events.find(has);
    if (!event?.eventTime) throw new Error('createdTimeline: the history lacks its start or its first workflow task');
    return tsToMs(event.eventTime);
  };
  const started = first((e) => e.workflowExecutionStartedEventAttributes);
  const taskStarted = first((e) => e.workflowTaskStartedEventAttributes);
  const taskCompleted = first((e) => e.workflowTaskCompletedEventAttributes);
  return {
    answer: marks.answered - marks.sent,
    start: started - marks.answered,
    firstTaskDispatch: taskStarted - started,
    firstTask: taskCompleted - taskStarted,
    delivery: marks.received - taskCompleted,
  };
}
