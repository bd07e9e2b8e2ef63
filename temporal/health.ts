/** The domain's HealthPort (domain/health.ts) on a Temporal client: read from the server, nothing run. */
import type { HealthPort } from '../domain/health.js';
import type { TemporalCalls } from './calls.js';

/** TaskQueueKind NORMAL and TaskQueueType WORKFLOW of Temporal's API. */
const TASK_QUEUE_KIND_NORMAL = 1;
const TASK_QUEUE_TYPE_WORKFLOW = 1;

/** How long a health probe of Temporal may take. */
const PROBE_DEADLINE_MS = 2000;

type ProtoTimestamp = { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined;

function timestampMs(ts: ProtoTimestamp): number | undefined {
  if (!ts?.seconds) return undefined;
  const seconds = typeof ts.seconds === 'number' ? ts.seconds : ts.seconds.toNumber();
  return seconds * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

export function temporalHealth({ client, config, withDeadline }: TemporalCalls): HealthPort {
  return {
    async lastWorkerPoll() {
      // One read of the task queue's poller list: no workflow, no history, nothing retained.
      const { pollers } = await withDeadline(PROBE_DEADLINE_MS, () =>
        client.workflowService.describeTaskQueue({
          namespace: client.options.namespace,
          taskQueue: { name: config.taskQueue, kind: TASK_QUEUE_KIND_NORMAL },
          taskQueueType: TASK_QUEUE_TYPE_WORKFLOW,
        }),
      );
      const times = (pollers ?? []).map((poller) => timestampMs(poller.lastAccessTime)).filter((ms): ms is number => ms !== undefined);
      return times.length ? new Date(Math.max(...times)) : null;
    },
  };
}
