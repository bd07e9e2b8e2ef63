import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Deps } from '../deps.js';
import type { Shipment } from '../mailings/shipment.js';
import { OPT_IN_EVENT_TYPES, type DeliveryTarget, type EventType } from './event-types.js';
import { randomUUID } from 'node:crypto';
import { findWebhookEndpoint, WebhookEndpointError } from './endpoints.js';

export interface NewEvent {
  /** The event's id, or (mailing events) what makes the event unique: its id is derived from it. */
  eventId?: string;
  /** Shipment, type and step or proof kind: the same event always gets the same id (retries, Reset). */
  eventKey?: string;
  type: EventType;
  accountId: string;
  livemode: boolean;
  created: string;
  mailing?: Shipment;
  proof?: { kind: string };
  /** `data.details` of a `mailing.error` event: why it ended, e.g. the postal operator's reason for refusing the letter. */
  details?: { reason: string };
  /** Only endpoints declared at or before this time (mailing.created). */
  endpointsCreatedBy?: string;
  /** Only this endpoint (ping). */
  endpointId?: string;
  /** The body's `data` (ping: PingData, mailing_batch.completed: { batch }); mailing events build theirs from `mailing` and `proof`. */
  data?: Record<string, unknown>;
}

/** `data` of a `ping` event (docs/webhooks.md): which endpoint is tried, as declared. */
export interface PingData {
  endpoint: { id: string; url: string; events: string[] };
}

/** A UUID derived from text (an event's key): the same text always gives the same id. */
function uuidFrom(text: string): string {
  const h = sha256Hex(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * A delivery's id, derived in SQL as uuidFrom derives it from `<event id>/<endpoint id>`: the same
 * event and endpoint always give the same delivery id, whichever build recorded it first
 * (test/e2e/webhooks.test.ts checks the two against each other). Its parameter is the event's id.
 */
const DERIVED_DELIVERY_ID = `(SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-5' || substr(h, 14, 3) || '-'
  || to_hex((('x' || substr(h, 17, 1))::bit(4)::int & 3) | 8) || substr(h, 18, 3) || '-' || substr(h, 21, 12))::uuid
  FROM (SELECT encode(sha256(convert_to(?::text || '/' || t.id::text, 'UTF8')), 'hex') AS h) AS digest)`;

/** The statement recording an event with its deliveries (recordWebhookEvent), and what its rows mean. */
export interface EventStatement {
  /** More writes may be added to it as CTEs (`.with`), made in the same round trip. */
  query: Knex.QueryBuilder;
  deliveries(rows: unknown): DeliveryTarget[];
}

/**
 * Records the event (body per SPEC.md "Request received") and one pending delivery per matching
 * endpoint of the right environment; returns the deliveries to start: those still pending.
 * Repeating it creates nothing twice.
 */
export async function recordWebhookEvent(db: Db, event: NewEvent): Promise<DeliveryTarget[]> {
  const statement = webhookEventStatement(db, event);
  return statement.deliveries(await statement.query);
}

/** recordWebhookEvent's one statement, not yet run: a new mailing is recorded with its `mailing.created` (domain/mailings/create.ts). */
export function webhookEventStatement(db: Db, event: NewEvent): EventStatement {
  const eventId = event.eventId ?? uuidFrom(`event/${event.eventKey}`);
  const payload = {
    id: eventId,
    type: event.type,
    created: event.created,
    livemode: event.livemode,
    data:
      event.type === 'ping' || event.data
        ? (event.data ?? {})
        : { mailing: event.mailing, ...(event.proof ? { proof: event.proof } : {}), ...(event.details ? { details: event.details } : {}) },
  };
  const recordEvent = db('webhook_events')
    .insert({
      id: eventId,
      account_id: event.accountId,
      shipment_id: event.mailing?.id ?? null,
      type: event.type,
      livemode: event.livemode,
      payload,
      created_at: event.created,
    })
    .onConflict('id')
    .ignore();
  // Disabled and deleted endpoints receive nothing.
  let endpoints = db('webhook_endpoints')
    .where({ account_id: event.accountId, env: event.livemode ? 'live' : 'test' })
    .whereNull('disabled_at')
    .whereNull('deleted_at');
  if (event.endpointId) endpoints = endpoints.andWhere({ id: event.endpointId });
  else if (OPT_IN_EVENT_TYPES.includes(event.type)) endpoints = endpoints.andWhereRaw('? = ANY(events)', [event.type]);
  else endpoints = endpoints.andWhere((q) => q.whereRaw('cardinality(events) = 0').orWhereRaw('? = ANY(events)', [event.type]));
  if (event.endpointsCreatedBy) endpoints = endpoints.andWhere('created_at', '<=', event.endpointsCreatedBy);
  // One statement, one round trip per event: the event, its endpoints, and one delivery each: the
  // new ones, and those an earlier record of this event left pending (a Reset, a mailing resumed
  // by the reconciler). Delivered or abandoned ones are not sent again.
  const query = db
    .with('recorded_event', recordEvent)
    .with('targets', endpoints.select('id'))
    .with(
      'started',
      db.raw(
        `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status)
         SELECT ${DERIVED_DELIVERY_ID}, ?::uuid, t.id, ?::uuid, 'pending' FROM targets t
         ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id WHERE webhook_deliveries.status = 'pending'
         RETURNING id, endpoint_id`,
        [eventId, eventId, event.accountId],
      ),
    )
    .select('id', 'endpoint_id')
    .from('started')
    .orderBy('endpoint_id');
  return {
    query,
    deliveries: (rows) =>
      (rows as { id: string; endpoint_id: string }[]).map((d) => ({
        deliveryId: d.id,
        accountId: event.accountId,
        endpointId: d.endpoint_id,
        eventId,
        eventType: event.type,
      })),
  };
}

/**
 * "Send a test event" of the developer space (SPEC.md: the ping button) and `admin webhook ping`: a
 * `ping` event, with a new id, to this one endpoint whatever its event filter, delivered (signed,
 * retried) like any other. Its body's `data` is PingData. The endpoint must be the account's, not
 * deleted and not disabled.
 */
export async function pingEndpoint(
  deps: Deps,
  endpoint: { id: string; account_id: string },
): Promise<{ deliveryId: string; endpointId: string; eventId: string }> {
  const found = await findWebhookEndpoint(deps.db, endpoint.account_id, endpoint.id);
  if (found.disabledAt) throw new WebhookEndpointError('endpoint_disabled', 'This webhook endpoint is disabled: enable it first.');
  const data: PingData = { endpoint: { id: found.id, url: found.url, events: found.events } };
  const eventId = randomUUID();
  const [delivery] = await recordWebhookEvent(deps.db, {
    eventId,
    type: 'ping',
    accountId: endpoint.account_id,
    livemode: found.env === 'live',
    created: new Date().toISOString(),
    endpointId: found.id,
    data: data as unknown as Record<string, unknown>,
  });
  // Disabled or deleted in the meantime.
  if (!delivery) {
    await deps.db('webhook_events').where({ id: eventId }).delete();
    throw new WebhookEndpointError('endpoint_disabled', 'This webhook endpoint is disabled: enable it first.');
  }
  try {
    await deps.workflows.startDelivery(delivery);
  } catch (error) {
    // Not started: the test event never happened (the developer tries again).
    await deps.db('webhook_events').where({ id: eventId }).delete();
    throw error;
  }
  return { deliveryId: delivery.deliveryId, endpointId: found.id, eventId };
}
