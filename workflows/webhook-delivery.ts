import { proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

// Local activities: an attempt starts in the same workflow task, without a task-queue round trip
// (webhook latency). 10 s for the receiver, plus DNS and connection set-up.
const { attemptWebhookDelivery, abandonWebhookDelivery } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30s',
  // HTTP failures come back as results; these retries only cover our own infrastructure.
  retry: { maximumAttempts: 3, initialInterval: '1s' },
});

export interface DeliveryInput {
  deliveryId: string;
  /** Waits between attempts: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h (8 attempts in all). */
  retryDelaysMs: number[];
}

/**
 * One webhook delivery: an attempt, then the retry schedule, then abandoned. It outlives the
 * mailing workflow that started it (parent close policy ABANDON).
 */
export async function webhookDelivery(input: DeliveryInput): Promise<{ delivered: boolean; attempts: number }> {
  const attempts = input.retryDelaysMs.length + 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = await attemptWebhookDelivery(input.deliveryId);
    if (result.delivered) return { delivered: true, attempts: attempt };
    if (attempt < attempts) await sleep(input.retryDelaysMs[attempt - 1]!);
  }
  await abandonWebhookDelivery(input.deliveryId);
  return { delivered: false, attempts };
}
