/** The domain's WebhookPort (domain/webhooks/port.ts) on a Temporal client. */
import type { WebhookPort } from '../domain/webhooks/port.js';
import { webhookDelivery } from '../workflows/index.js';
import { deliverySearchAttributes, deliverySummary, deliveryWorkflowId } from '../workflows/contract.js';
import { type TemporalCalls, unreachable } from './calls.js';

export function temporalWebhooks({ client, config }: TemporalCalls): WebhookPort {
  return {
    async startDelivery(target) {
      try {
        await client.workflow.start(webhookDelivery, {
          taskQueue: config.taskQueue,
          workflowId: deliveryWorkflowId(target.deliveryId),
          args: [{ deliveryId: target.deliveryId, retryDelaysMs: config.webhookRetryDelaysMs }],
          staticSummary: deliverySummary(target),
          typedSearchAttributes: deliverySearchAttributes(target),
        });
      } catch {
        throw unreachable();
      }
    },
  };
}
