import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/knex.js';
import type { Config } from '../lib/config.js';
import { decrypt, hmacSha256Hex } from '../lib/crypto.js';
import { API_VERSION } from '../domain/version.js';
import { recordWebhookEvent, type NewEvent } from '../domain/webhooks/events.js';
import { postWebhook } from './net/webhook-request.js';
import type { DeliveryTarget } from '../workflows/contract.js';

export const USER_AGENT = `Service-Webhooks/${API_VERSION}`;
/** The delivery history is kept this long (SPEC.md: 30 days). */
export const DELIVERY_RETENTION_DAYS = 30;

export interface AttemptResult {
  delivered: boolean;
  httpStatus: number | null;
  error: string | null;
}

/** Signed webhook deliveries (SPEC.md "Events"). */
export function webhookActivities(db: Db, config: Config) {
  return {
    /**
     * Records the event (body per SPEC.md "Request received") and one pending delivery per matching
     * endpoint of the right environment; returns the delivery ids. Kept for the mailings of older
     * builds, which replay it; new ones call createWebhookDeliveries.
     */
    createWebhookEvent: async (event: NewEvent): Promise<string[]> => (await recordWebhookEvent(db, event)).map((d) => d.deliveryId),
    /** The same, with what each delivery is found by in the Temporal UI (account, endpoint, event). */
    createWebhookDeliveries: (event: NewEvent): Promise<DeliveryTarget[]> => recordWebhookEvent(db, event),

    /**
     * One attempt: a fresh timestamp and signature, 10 s to answer 2xx, no redirects. `attempt`
     * (its number and the delivery workflow's time) is recorded in `attempted_at`; a retry of the
     * same attempt replaces its time rather than adding one. Workflows of older builds do not pass it.
     */
    async attemptWebhookDelivery(deliveryId: string, attempt?: { number: number; at: string }): Promise<AttemptResult> {
      const delivery = await db('webhook_deliveries as d')
        .join('webhook_events as e', 'e.id', 'd.event_id')
        .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
        .where('d.id', deliveryId)
        .first('d.status', 'e.type', 'e.payload', 'w.url', 'w.secret_sealed');
      if (!delivery) throw ApplicationFailure.nonRetryable(`delivery ${deliveryId} does not exist`, 'delivery_missing');
      if (delivery.status !== 'pending') return { delivered: delivery.status === 'delivered', httpStatus: null, error: null };
      const body = JSON.stringify(delivery.payload);
      const t = Math.floor(Date.now() / 1000);
      const signature = hmacSha256Hex(decrypt(delivery.secret_sealed, config.secretKey), `${t}.${body}`);
      const response = await postWebhook(
        delivery.url,
        {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'service-event': delivery.type,
          'service-delivery': deliveryId,
          'service-signature': `t=${t},v1=${signature}`,
        },
        body,
        config.webhookAllowPrivate,
      );
      await db('webhook_deliveries')
        .where({ id: deliveryId })
        .update({
          attempts: db.raw('attempts + 1'),
          last_http_status: response.status,
          last_error: response.error,
          status: response.ok ? 'delivered' : 'pending',
          delivered_at: response.ok ? db.fn.now() : null,
          updated_at: db.fn.now(),
          attempted_at: attempt
            ? db.raw('attempted_at[1:?] || ?::timestamptz', [attempt.number - 1, attempt.at])
            : db.raw('attempted_at || now()::timestamptz'),
        });
      return { delivered: response.ok, httpStatus: response.status, error: response.error };
    },

    async abandonWebhookDelivery(deliveryId: string): Promise<void> {
      await db('webhook_deliveries').where({ id: deliveryId, status: 'pending' }).update({ status: 'abandoned', updated_at: db.fn.now() });
    },

    /** Deliveries (and their events) older than 30 days are purged by the "webhook-history-purge" schedule. */
    async purgeWebhookHistory(): Promise<number> {
      const cutoff = db.raw(`now() - interval '${DELIVERY_RETENTION_DAYS} days'`);
      const deleted = await db('webhook_deliveries').where('created_at', '<', cutoff).delete();
      await db('webhook_events').where('created_at', '<', cutoff).delete();
      return deleted;
    },
  };
}
