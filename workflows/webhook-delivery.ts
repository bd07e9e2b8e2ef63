import { ApplicationFailure, proxyLocalActivities, setCurrentDetails, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { AttemptResult } from '../activities/webhooks.js';
import { DELIVERY_STATUS, WEBHOOK_ABANDONED, WEBHOOK_CANCELED, type DeliveryStatus } from './contract.js';

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
  /**
   * Set when the mailing workflow made the first attempt itself and it failed: this delivery
   * starts with the wait before attempt 2, already `retrying`. Absent: it starts at attempt 1.
   */
  firstAttemptFailed?: { answer: string };
}

/** "2 h", "30 min", "1 d 2 h", "300 ms": a wait as an operator reads it. */
export function humanDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  const parts: string[] = [];
  let rest = ms;
  for (const [size, name] of units) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)} ${name}`);
      rest %= size;
    }
  }
  return parts.join(' ');
}

export const answer = (result: AttemptResult): string => (result.httpStatus !== null ? `HTTP ${result.httpStatus}` : (result.error ?? 'no answer'));

/**
 * One webhook delivery: an attempt, then the retry schedule, then abandoned. It outlives the
 * mailing workflow that started it (parent close policy ABANDON). In the Temporal UI: its
 * `DeliveryStatus` search attribute, its current details ("attempt 4/8 failed (HTTP 500), next in
 * 2 h"), and an abandoned delivery ends failed (`webhook_abandoned`), never as a success; so does one
 * whose endpoint was disabled or deleted (`webhook_canceled`, at its next attempt, which sends nothing).
 */
export async function webhookDelivery(input: DeliveryInput): Promise<{ delivered: boolean; attempts: number }> {
  const attempts = input.retryDelaysMs.length + 1;
  const status = (value: DeliveryStatus): void => upsertSearchAttributes([{ key: DELIVERY_STATUS, value }]);
  let last: AttemptResult | undefined;
  const after = input.firstAttemptFailed;
  if (after && attempts > 1) {
    // Started `retrying` (its search attributes are set at start): attempt 2 after the first wait.
    setCurrentDetails(`attempt 1/${attempts} failed (${after.answer}), next in ${humanDuration(input.retryDelaysMs[0]!)}`);
    await sleep(input.retryDelaysMs[0]!);
  }
  for (let attempt = after ? 2 : 1; attempt <= attempts; attempt++) {
    setCurrentDetails(`attempt ${attempt}/${attempts} under way`);
    const result = await attemptWebhookDelivery(input.deliveryId, { number: attempt, at: new Date().toISOString() });
    if (result.delivered) {
      setCurrentDetails(`delivered at attempt ${attempt}/${attempts}`);
      status('delivered');
      return { delivered: true, attempts: attempt };
    }
    // The endpoint was disabled or deleted: nothing more is sent, and the delivery ends failed.
    if (result.canceled) {
      setCurrentDetails(`canceled before attempt ${attempt}/${attempts}: ${result.canceled}`);
      status('canceled');
      throw ApplicationFailure.create({ type: WEBHOOK_CANCELED, message: `Canceled: ${result.canceled}; nothing more is sent.`, nonRetryable: true });
    }
    if (!last && !after) status('retrying');
    last = result;
    if (attempt < attempts) {
      const delay = input.retryDelaysMs[attempt - 1]!;
      setCurrentDetails(`attempt ${attempt}/${attempts} failed (${answer(result)}), next in ${humanDuration(delay)}`);
      await sleep(delay);
    } else {
      setCurrentDetails(`abandoned: all ${attempts} attempts failed, the last with ${answer(result)}`);
    }
  }
  await abandonWebhookDelivery(input.deliveryId);
  status('abandoned');
  throw ApplicationFailure.create({
    type: WEBHOOK_ABANDONED,
    message: `Abandoned after ${attempts} attempts; the last one got ${last ? answer(last) : (after?.answer ?? 'nothing')}.`,
    nonRetryable: true,
  });
}
