import type { Db } from '../../db/knex.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Deps } from '../deps.js';
import type { Shipment } from '../mailings/shipment.js';
import type { EventType } from './event-types.js';
import type { DeliveryTarget } from '../../workflows/contract.js';
import { randomUUID } from 'node:crypto';

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
  /** Only endpoints declared at or before this time (mailing.created). */
  endpointsCreatedBy?: string;
  /** Only this endpoint (ping). */
  endpointId?: string;
}

/** A UUID derived from text: the same event and endpoint always give the same delivery id. */
function uuidFrom(text: string): string {
  const h = sha256Hex(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Records the event (body per SPEC.md "Request received") and one pending delivery per matching
 * endpoint of the right environment; returns the deliveries to start: those still pending.
 * Repeating it creates nothing twice.
 */
export async function recordWebhookEvent(db: Db, event: NewEvent): Promise<DeliveryTarget[]> {
  const eventId = event.eventId ?? uuidFrom(`event/${event.eventKey}`);
  const payload = {
    id: eventId,
    type: event.type,
    created: event.created,
    livemode: event.livemode,
    data: event.type === 'ping' ? {} : { mailing: event.mailing, ...(event.proof ? { proof: event.proof } : {}) },
  };
  await db('webhook_events')
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
  let endpoints = db('webhook_endpoints').where({ account_id: event.accountId, env: event.livemode ? 'live' : 'test' });
  if (event.endpointId) endpoints = endpoints.andWhere({ id: event.endpointId });
  else endpoints = endpoints.andWhere((q) => q.whereRaw('cardinality(events) = 0').orWhereRaw('? = ANY(events)', [event.type]));
  if (event.endpointsCreatedBy) endpoints = endpoints.andWhere('created_at', '<=', event.endpointsCreatedBy);
  const ids = (await endpoints.select('id')).map((e) => e.id as string);
  const deliveries = ids.map((endpointId) => ({
    id: uuidFrom(`${eventId}/${endpointId}`),
    event_id: eventId,
    endpoint_id: endpointId,
    account_id: event.accountId,
    status: 'pending',
  }));
  if (!deliveries.length) return [];
  // One statement: the new deliveries, and those an earlier record of this event left pending
  // (a Reset, a mailing resumed by the reconciler). Delivered or abandoned ones are not sent again.
  const started = await db('webhook_deliveries')
    .insert(deliveries)
    .onConflict('id')
    .merge({ id: db.raw('EXCLUDED.id') })
    .where('webhook_deliveries.status', 'pending')
    .returning('id');
  const pending = new Set(started.map((d: { id: string }) => d.id));
  return deliveries
    .filter((d) => pending.has(d.id))
    .map((d) => ({ deliveryId: d.id, accountId: event.accountId, endpointId: d.endpoint_id, eventId, eventType: event.type }));
}

/** "Send a ping" of the developer space: a `ping` event to one endpoint, delivered like any other. */
export async function pingEndpoint(deps: Deps, endpoint: { id: string; account_id: string; env: string }): Promise<{ deliveryId: string; endpointId: string }> {
  const [delivery] = await recordWebhookEvent(deps.db, {
    eventId: randomUUID(),
    type: 'ping',
    accountId: endpoint.account_id,
    livemode: endpoint.env === 'live',
    created: new Date().toISOString(),
    endpointId: endpoint.id,
  });
  await deps.workflows.startDelivery(delivery!);
  return { deliveryId: delivery!.deliveryId, endpointId: endpoint.id };
}
