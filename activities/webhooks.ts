import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/knex.js';
import type { Config } from '../lib/config.js';
import { decrypt } from '../lib/crypto.js';
import { API_VERSION } from '../domain/version.js';
import { DELIVERY_RETENTION_DAYS } from '../domain/webhooks/deliveries.js';
import { recordWebhookEvent, type NewEvent } from '../domain/webhooks/events.js';
import { signatureHeader } from '../domain/webhooks/signature.js';
import { postWebhook } from './net/webhook-request.js';
import type { DeliveryTarget } from '../workflows/contract.js';

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
        .first(
          'd.status',
          'd.last_error',
          'e.type',
          'e.payload',
          'w.url',
          'w.secret_sealed',
          'w.disabled_at',
          'w.deleted_at',
          // The secret replaced by a rotation, while it still signs.
          db.raw('CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_sealed END AS previous_secret_sealed'),
        );
      if (!delivery) throw ApplicationFailure.nonRetryable(`delivery ${deliveryId} does not exist`, 'delivery_missing');
      // A disabled or deleted endpoint receives nothing more: the delivery ends, canceled.
      const stop = delivery.deleted_at ? 'endpoint deleted' : delivery.disabled_at ? 'endpoint disabled' : undefined;
      if (delivery.status === 'pending' && stop) {
        await db('webhook_deliveries').where({ id: deliveryId, status: 'pending' }).update({ status: 'canceled', last_error: stop, updated_at: db.fn.now() });
        return { delivered: false, httpStatus: null, error: stop, canceled: stop };
      }
      if (delivery.status === 'canceled') {
        const reason = delivery.last_error ?? 'canceled';
        return { delivered: false, httpStatus: null, error: reason, canceled: reason };
      }
      if (delivery.status !== 'pending') return { delivered: delivery.status === 'delivered', httpStatus: null, error: null };
      const body = JSON.stringify(delivery.payload);
      const t = Math.floor(Date.now() / 1000);
      const secrets = [delivery.secret_sealed, delivery.previous_secret_sealed].filter(Boolean).map((sealed: string) => decrypt(sealed, config.secretKey));
      const response = await postWebhook(
        delivery.url,
        {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'service-event': delivery.type,
          'service-delivery': deliveryId,
          'service-signature': signatureHeader(t, body, secrets),
        },
        body,
        config.webhookAllowPrivate,
      );
      // A delivery canceled while this attempt was under way stays canceled unless it got through.
      const [after] = await db('webhook_deliveries')
        .where({ id: deliveryId })
        .update({
          attempts: db.raw('attempts + 1'),
          last_http_status: response.status,
          last_error: db.raw(`CASE WHEN status = 'canceled' AND NOT ?::boolean THEN last_error ELSE ? END`, [response.ok, response.error]),
          status: response.ok ? 'delivered' : db.raw('status'),
          delivered_at: response.ok ? db.fn.now() : null,
          updated_at: db.fn.now(),
          attempted_at: attempt
            ? db.raw('attempted_at[1:?] || ?::timestamptz', [attempt.number - 1, attempt.at])
            : db.raw('attempted_at || now()::timestamptz'),
        })
        .returning(['status', 'last_error']);
      if (!response.ok && after?.status === 'canceled')
        return { delivered: false, httpStatus: response.status, error: response.error, canceled: after.last_error ?? 'canceled' };
      return { delivered: response.ok, httpStatus: response.status, error: response.error };
    },

    async abandonWebhookDelivery(deliveryId: string): Promise<void> {
      await db('webhook_deliveries').where({ id: deliveryId, status: 'pending' }).update({ status: 'abandoned', updated_at: db.fn.now() });
    },

    /**
     * Run hourly by the "webhook-history-purge" schedule: deliveries and events older than
     * DELIVERY_RETENTION_DAYS, then deleted endpoints with no history left, and the replaced
     * secrets whose overlap is over.
     */
    async purgeWebhookHistory(): Promise<number> {
      const cutoff = db.raw(`now() - make_interval(days => ${DELIVERY_RETENTION_DAYS})`);
      const deleted = await db('webhook_deliveries').where('created_at', '<', cutoff).delete();
      await db('webhook_events').where('created_at', '<', cutoff).delete();
      await db('webhook_endpoints')
        .whereNotNull('deleted_at')
        .whereNotExists(db('webhook_deliveries').whereRaw('webhook_deliveries.endpoint_id = webhook_endpoints.id'))
        .delete();
      await db('webhook_endpoints')
        .whereNotNull('previous_secret_sealed')
        .where('previous_secret_expires_at', '<=', db.fn.now())
        .update({ previous_secret_sealed: null, previous_secret_expires_at: null });
      return deleted;
    },
  };
}
