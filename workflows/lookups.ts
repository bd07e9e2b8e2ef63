import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { GEOCODING_QUEUE } from '../lib/task-queues.js';


const geocoding = proxyActivities<Activities>({
  taskQueue: GEOCODING_QUEUE,
  startToCloseTimeout: '15s',
  scheduleToCloseTimeout: '30s',
  retry: { maximumAttempts: 3, initialInterval: '300ms', nonRetryableErrorTypes: ['PartnerRefused'] },
});

/** GET /v1/geo/addresses: a short workflow around one partner call (timeout, retries, rate cap). */
export async function addressLookup(q: string, limit: number): Promise<Awaited<ReturnType<Activities['geocodeAddresses']>>> {
  return geocoding.geocodeAddresses(q, limit);
}
