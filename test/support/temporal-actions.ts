import type { Client } from '@temporalio/client';

type HistoryEvent = Record<string, any>;

/**
 * The Temporal actions of a workflow and of every child it started, as Temporal Cloud bills them:
 * its start, each activity scheduled, each workflow task's local activities as one, each child
 * started, each update accepted, each search-attribute upsert, each timer (and the children's own).
 */
export interface ActionCount {
  total: number;
  parts: Record<string, number>;
  children: number;
  /** Local activities one by one (billed by workflow task, in `parts.localActivityTasks`). */
  localActivities: number;
  /** History events, the workflow's and its children's. */
  events: number;
}

export async function countActions(client: Client, workflowId: string): Promise<ActionCount> {
  const parts: Record<string, number> = { starts: 0, activities: 0, localActivityTasks: 0, childStarts: 0, updates: 0, upserts: 0, timers: 0, signals: 0 };
  let children = 0;
  let localActivities = 0;
  let eventCount = 0;
  const visit = async (id: string, root: boolean): Promise<void> => {
    const events = ((await client.workflow.getHandle(id).fetchHistory()).events ?? []) as HistoryEvent[];
    if (root) parts.starts! += 1;
    eventCount += events.length;
    // Markers are recorded with the task that completes: those before the next task is scheduled are one action.
    let localInTask = false;
    for (const e of events) {
      if (e.activityTaskScheduledEventAttributes) parts.activities! += 1;
      if (e.markerRecordedEventAttributes?.markerName === 'core_local_activity') {
        localInTask = true;
        localActivities += 1;
      }
      if (e.workflowTaskScheduledEventAttributes && localInTask) {
        parts.localActivityTasks! += 1;
        localInTask = false;
      }
      if (e.startChildWorkflowExecutionInitiatedEventAttributes) parts.childStarts! += 1;
      if (e.workflowExecutionUpdateAcceptedEventAttributes) parts.updates! += 1;
      if (e.upsertWorkflowSearchAttributesEventAttributes) parts.upserts! += 1;
      if (e.timerStartedEventAttributes) parts.timers! += 1;
      if (e.workflowExecutionSignaledEventAttributes) parts.signals! += 1;
      const child = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId;
      if (child) {
        children += 1;
        await visit(child, false);
      }
    }
    if (localInTask) parts.localActivityTasks! += 1;
  };
  await visit(workflowId, true);
  return { total: Object.values(parts).reduce((a, b) => a + b, 0), parts, children, localActivities, events: eventCount };
}
