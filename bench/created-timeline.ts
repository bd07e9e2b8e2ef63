/**
 * Where the time from POST /v1/mailings to its `mailing.created` at the receiver goes, read from the
 * mailing workflow's own history (the server's clock is the machine's: one clock for every mark).
 */

/** A history event as the client returns it: its type's attributes and its time. */
export interface TimedEvent {
  eventTime?: { seconds?: unknown; nanos?: number | null } | null;
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

function timeOf(event: TimedEvent): number {
  // The client gives the seconds as a protobuf Long (its decimal text is its value) or a number.
  const seconds = Number(String(event.eventTime?.seconds ?? NaN));
  return seconds * 1000 + Math.floor((event.eventTime?.nanos ?? 0) / 1e6);
}

/** The stages of one mailing, from the bench's marks (ms since the epoch) and the workflow's history. */
export function createdTimeline(marks: { sent: number; answered: number; received: number }, events: TimedEvent[]): CreatedTimeline {
  const first = (has: (e: TimedEvent) => unknown): number => {
    const event = events.find((e) => has(e));
    if (!event) throw new Error('createdTimeline: the history lacks its start or its first workflow task');
    return timeOf(event);
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
