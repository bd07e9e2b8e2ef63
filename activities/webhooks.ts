import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/knex.js';
import type { Config } from '../lib/config.js';
import { decrypt } from '../lib/crypto.js';
import { API_VERSION } from '../domain/version.js';
import { abandonDelivery, cancelPendingDelivery, deliveryToAttempt, purgeWebhookHistory, recordDeliveryAttempt } from '../domain/webhooks/deliveries.js';
import { recordWebhookEvent, type NewEvent } from '../domain/webhooks/events.js';
import { signatureHeader } from '../domain/webhooks/signature.js';
import { postWebhook } from './net/webhook-request.js';
import type { DeliveryTarget } from '../domain/webhooks/event-types.js';

export const USER_AGENT = `Service-Webhooks/${API_VERSION}`;

export interface AttemptResult {
  delivered: boolean;
  httpStatus: number | null;
  error: string | null;
  /**
   * Set when the delivery must end without sending anything more: its endpoint was disabled or
   * deleted ("endpoint disabled", "endpoint deleted"). Absent from the results of older builds.
   */
  canceled?: string;
}

/** Signed webhook deliveries (SPEC.md "Events"): thin adapters over domain/webhooks/ and the HTTPS request. */
export function webhookActivities(db: Db, config: Config) {
  const activities = {
    /**
     * Records the event (body per SPEC.md "Request received") and one pending delivery per matching
     * endpoint of the right environment; returns what each delivery is started and found by in the
     * Temporal UI (account, endpoint, event).
     */
    createWebhookDeliveries: (event: NewEvent): Promise<DeliveryTarget[]> => recordWebhookEvent(db, event),

    /**
     * One attempt: a fresh timestamp and signature, 10 s to answer 2xx, no redirects. `attempt`
     * (its number and the delivery workflow's time) is recorded in `attempted_at`; a retry of the
     * same attempt replaces its time rather than adding one.
     */
    async attemptWebhookDelivery(deliveryId: string, attempt?: { number: number; at: string }): Promise<AttemptResult> {
      const delivery = await deliveryToAttempt(db, deliveryId);
      if (!delivery) throw ApplicationFailure.nonRetryable(`delivery ${deliveryId} does not exist`, 'delivery_missing');
      // A disabled or deleted endpoint receives nothing more: the delivery ends, canceled.
      const stop = delivery.endpointStopped;
      if (delivery.status === 'pending' && stop) {
        await cancelPendingDelivery(db, deliveryId, stop);
        return { delivered: false, httpStatus: null, error: stop, canceled: stop };
      }
      if (delivery.status === 'canceled') {
        const reason = delivery.lastError ?? 'canceled';
        return { delivered: false, httpStatus: null, error: reason, canceled: reason };
      }
      if (delivery.status !== 'pending') return { delivered: delivery.status === 'delivered', httpStatus: null, error: null };
      const body = JSON.stringify(delivery.payload);
      const t = Math.floor(Date.now() / 1000);
      const secrets = delivery.sealedSecrets.map((sealed) => decrypt(sealed, config.secretKey));
      const response = await postWebhook(
        delivery.url,
        {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'service-event': delivery.eventType,
          'service-delivery': deliveryId,
          'service-signature': signatureHeader(t, body, secrets),
        },
        body,
        config.webhookAllowPrivate,
      );
      const after = await recordDeliveryAttempt(db, deliveryId, response, attempt);
      if (!response.ok && after?.status === 'canceled')
        return { delivered: false, httpStatus: response.status, error: response.error, canceled: after.lastError ?? 'canceled' };
      return { delivered: response.ok, httpStatus: response.status, error: response.error };
    },

    abandonWebhookDelivery: (deliveryId: string): Promise<void> => abandonDelivery(db, deliveryId),

    /** Run hourly by the "webhook-history-purge" schedule (domain/webhooks/deliveries.ts). */
    purgeWebhookHistory: (): Promise<number> => purgeWebhookHistory(db),

    /**
     * The first attempt of each delivery of one event, all at once, run by the mailing workflow
     * itself: one activity per event, whatever the number of endpoints. A result per target, in
     * order; an attempt that fails on our side (the database, a missing delivery) is a failed
     * result, never a thrown error, so that each failed delivery goes on to its retry schedule.
     */
    deliverWebhooks: (targets: DeliveryTarget[], at: string): Promise<AttemptResult[]> =>
      Promise.all(
        targets.map((target) =>
          activities
            .attemptWebhookDelivery(target.deliveryId, { number: 1, at })
            .catch((error: unknown): AttemptResult => ({ delivered: false, httpStatus: null, error: `failed on our side: ${(error as Error).message}` })),
        ),
      ),
  };
  return activities;
}
