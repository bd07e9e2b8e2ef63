/**
 * The baseline of the live-mailing throughput: a workflow that does nothing but run as many
 * local and regular activities as one live AR mailing does (bundled by the bench's own worker).
 */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

interface Noop {
  noop(): Promise<void>;
}

const regular = proxyActivities<Noop>({ startToCloseTimeout: '10s' });
const local = proxyLocalActivities<Noop>({ startToCloseTimeout: '10s' });

export async function bareActivities(activities: number, localActivities: number): Promise<void> {
  for (let i = 0; i < localActivities; i++) await local.noop();
  for (let i = 0; i < activities; i++) await regular.noop();
}
