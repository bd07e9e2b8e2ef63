import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import type { Deps } from '../deps.js';
import { decodeCursor, page } from '../pagination.js';
import type { DeliveryTarget } from './event-types.js';
import { WebhookEndpointError } from './endpoint-error.js';
import { isUuid } from '../../lib/text.js';

/** SPEC.md "Limits": the delivery history is kept this long, then purged (webhook-history-purge). */
export const DELIVERY_RETENTION_DAYS = 30;

/** `pending` (under way), `delivered`, `abandoned` (every attempt failed), `canceled` (endpoint disabled or deleted first). */
export type DeliveryRecordStatus = 'pending' | 'delivered' | 'abandoned' | 'canceled';

export interface DeliveryRecord {
  id: string;
  eventId: string;
  type: string;
  endpointId: string;
  url: string;
  /** The endpoint was deleted since (its history stays). */
  endpointDeleted: boolean;
  /** The endpoint is disabled now. */
  endpointDisabled: boolean;
  status: DeliveryRecordStatus;
  attempts: number;
  /** When each attempt was made, first to last. */
  attemptedAt: Date[];
  lastHttpStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
  /** A resend: the delivery it repeats (null once that one is purged). */
  resentFrom: string | null;
}

export interface DeliveryDetail extends DeliveryRecord {
  /** The event's body, as sent (SPEC.md "Request received"). */
  payload: unknown;
  livemode: boolean;
}

/** Only what is kept: the history of the last DELIVERY_RETENTION_DAYS (the purge runs hourly). */
const retained = (db: Db): Knex.Raw => db.raw(`now() - make_interval(days => ${DELIVERY_RETENTION_DAYS})`);

function deliveries(db: Db, accountId: string): Knex.QueryBuilder {
  return db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .where('d.account_id', accountId)
    .andWhere('d.created_at', '>=', retained(db));
}

const COLUMNS = [
  'd.id',
  'e.id as event_id',
  'e.type',
  'w.id as endpoint_id',
  'w.url',
  'w.deleted_at as endpoint_deleted_at',
  'w.disabled_at as endpoint_disabled_at',
  'd.status',
  'd.attempts',
  'd.attempted_at',
  'd.last_http_status',
  'd.last_error',
  'd.created_at',
  'd.updated_at',
  'd.delivered_at',
  'd.resent_from',
];

function record(r: Record<string, unknown>): DeliveryRecord {
  return {
    id: r.id as string,
    eventId: r.event_id as string,
    type: r.type as string,
    endpointId: r.endpoint_id as string,
    url: r.url as string,
    endpointDeleted: r.endpoint_deleted_at !== null,
    endpointDisabled: r.endpoint_disabled_at !== null,
    status: r.status as DeliveryRecordStatus,
    attempts: r.attempts as number,
    attemptedAt: r.attempted_at as Date[],
    lastHttpStatus: r.last_http_status as number | null,
    lastError: r.last_error as string | null,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
    deliveredAt: r.delivered_at as Date | null,
    resentFrom: r.resent_from as string | null,
  };
}

const ORDER = [
  { column: 'd.created_at', order: 'desc' as const },
  { column: 'd.id', order: 'desc' as const },
];

/** An account's webhook delivery history (kept DELIVERY_RETENTION_DAYS), most recent first. */
export async function listDeliveries(db: Db, accountId: string, limit: number): Promise<DeliveryRecord[]> {
  const rows = await deliveries(db, accountId).orderBy(ORDER).limit(limit).select(COLUMNS);
  return rows.map(record);
}

/** One endpoint's deliveries within the retention period, by outcome: the home page's success rate. */
export interface EndpointOutcomes {
  endpointId: string;
  url: string;
  delivered: number;
  abandoned: number;
  pending: number;
}

/** Each endpoint of the account that is not deleted, with its deliveries of the last DELIVERY_RETENTION_DAYS by outcome. */
export async function endpointOutcomes(db: Db, accountId: string): Promise<EndpointOutcomes[]> {
  const rows = await db('webhook_endpoints as w')
    .leftJoin('webhook_deliveries as d', (join) => join.on('d.endpoint_id', 'w.id').andOn('d.created_at', '>=', retained(db)))
    .where('w.account_id', accountId)
    .whereNull('w.deleted_at')
    .groupBy('w.id', 'w.url', 'w.created_at')
    .orderBy('w.created_at')
    .select(
      'w.id',
      'w.url',
      db.raw("count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered"),
      db.raw("count(*) FILTER (WHERE d.status = 'abandoned')::int AS abandoned"),
      db.raw("count(*) FILTER (WHERE d.status = 'pending')::int AS pending"),
    );
  return rows.map((r: { id: string; url: string; delivered: number; abandoned: number; pending: number }) => ({
    endpointId: r.id,
    url: r.url,
    delivered: r.delivered,
    abandoned: r.abandoned,
    pending: r.pending,
  }));
}

/** The deliveries of the events one mailing of the account caused (kept DELIVERY_RETENTION_DAYS), most recent first. */
export async function mailingDeliveries(db: Db, accountId: string, mailingId: string, limit: number): Promise<DeliveryRecord[]> {
  if (!isUuid(mailingId)) return [];
  const rows = await deliveries(db, accountId).andWhere('e.shipment_id', mailingId).orderBy(ORDER).limit(limit).select(COLUMNS);
  return rows.map(record);
}

/**
 * One page of the delivery log of the developer space, most recent first, optionally of one
 * endpoint: keyset pagination on (created_at, id) with the API's sealed cursors (a cursor works for
 * this account's log only; another one is `invalid_cursor`).
 */
export async function deliveryPage(
  db: Db,
  key: Buffer,
  accountId: string,
  options: { limit: number; cursor?: string; endpointId?: string },
): Promise<{ deliveries: DeliveryRecord[]; nextCursor: string | null }> {
  const scope = `webhook-deliveries:${accountId}`;
  const query = deliveries(db, accountId);
  if (options.endpointId) {
    if (!isUuid(options.endpointId)) throw new WebhookEndpointError('not_found', `No webhook endpoint ${options.endpointId} for this account.`);
    query.andWhere('d.endpoint_id', options.endpointId);
  }
  if (options.cursor) {
    let after;
    try {
      after = decodeCursor(options.cursor, key, scope);
    } catch {
      throw new WebhookEndpointError('invalid_cursor', 'The cursor is not one of this delivery log.');
    }
    query.andWhereRaw('(d.created_at, d.id) < (?::timestamptz, ?::uuid)', [after.createdAt, after.id]);
  }
  const rows = await query
    .orderBy(ORDER)
    .limit(options.limit + 1)
    .select(COLUMNS);
  const { rows: shown, nextCursor } = page(rows as { created_at: Date; id: string }[], options.limit, key, scope);
  return { deliveries: shown.map(record), nextCursor };
}

/** One delivery of the account (within the retention period), with its event's body. */
export async function deliveryDetail(db: Db, accountId: string, id: string): Promise<DeliveryDetail> {
  const row = isUuid(id)
    ? await deliveries(db, accountId)
        .andWhere('d.id', id)
        .first([...COLUMNS, 'e.payload', 'e.livemode'])
    : undefined;
  if (!row) throw new WebhookEndpointError('not_found', `No delivery ${id} for this account.`);
  return { ...record(row), payload: row.payload, livemode: row.livemode };
}

/**
 * "Resend": a NEW delivery (new id, so a new `Service-Delivery` header) of the SAME event (same
 * body, same event `id`) to the same endpoint, through the same delivery workflow and retry
 * schedule. The endpoint must still exist and be enabled. If the workflow cannot be started the
 * new delivery is removed and the error passed on: nothing happened.
 */
export async function resendDelivery(deps: Deps, accountId: string, deliveryId: string): Promise<DeliveryTarget> {
  const { db } = deps;
  const original = await deliveryDetail(db, accountId, deliveryId);
  if (original.endpointDeleted) throw new WebhookEndpointError('endpoint_deleted', 'This delivery’s endpoint was deleted.');
  if (original.endpointDisabled) throw new WebhookEndpointError('endpoint_disabled', 'This webhook endpoint is disabled: enable it first.');
  const target: DeliveryTarget = {
    deliveryId: randomUUID(),
    accountId,
    endpointId: original.endpointId,
    eventId: original.eventId,
    eventType: original.type,
  };
  await db('webhook_deliveries').insert({
    id: target.deliveryId,
    event_id: target.eventId,
    endpoint_id: target.endpointId,
    account_id: accountId,
    status: 'pending',
    resent_from: original.id,
  });
  try {
    await deps.workflows.webhooks.startDelivery(target);
  } catch (error) {
    await db('webhook_deliveries').where({ id: target.deliveryId }).delete();
    throw error;
  }
  return target;
}

/** What one attempt of a delivery needs: its state, the event, the endpoint's address and sealed secrets. */
export interface DeliveryToAttempt {
  status: DeliveryRecordStatus;
  lastError: string | null;
  eventType: string;
  payload: unknown;
  url: string;
  /** The endpoint's secret, and the one a rotation replaced while it still signs. */
  sealedSecrets: string[];
  /** Why nothing more may be sent: the endpoint was disabled or deleted. */
  endpointStopped?: 'endpoint disabled' | 'endpoint deleted';
}

export async function deliveryToAttempt(db: Db, deliveryId: string): Promise<DeliveryToAttempt | undefined> {
  const row = await db('webhook_deliveries as d')
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
      db.raw('CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_sealed END AS previous_secret_sealed'),
    );
  if (!row) return undefined;
  return {
    status: row.status,
    lastError: row.last_error,
    eventType: row.type,
    payload: row.payload,
    url: row.url,
    sealedSecrets: [row.secret_sealed, row.previous_secret_sealed].filter(Boolean),
    endpointStopped: row.deleted_at ? 'endpoint deleted' : row.disabled_at ? 'endpoint disabled' : undefined,
  };
}

/**
 * Ends the pending deliveries of an endpoint that must receive nothing more: `canceled`, with the
 * reason as their last error. Their workflows see it at their next attempt and end (failed,
 * `webhook_canceled`) without sending; an attempt already under way completes.
 */
export async function cancelPendingDeliveries(db: Db, endpointId: string, reason: string): Promise<number> {
  return db('webhook_deliveries')
    .where({ endpoint_id: endpointId, status: 'pending' })
    .update({ status: 'canceled', last_error: reason, updated_at: db.fn.now() });
}

/** A pending delivery ends without another attempt (its endpoint was disabled or deleted). */
export async function cancelPendingDelivery(db: Db, deliveryId: string, reason: string): Promise<void> {
  await db('webhook_deliveries').where({ id: deliveryId, status: 'pending' }).update({ status: 'canceled', last_error: reason, updated_at: db.fn.now() });
}

/**
 * Records one attempt's outcome. `attempt` (its number and the delivery workflow's time) goes in
 * `attempted_at`; a retry of the same attempt replaces its time rather than adding one. A delivery
 * canceled while the attempt was under way stays canceled unless it got through.
 */
export async function recordDeliveryAttempt(
  db: Db,
  deliveryId: string,
  response: { ok: boolean; status: number | null; error: string | null },
  attempt?: { number: number; at: string },
): Promise<{ status: DeliveryRecordStatus; lastError: string | null } | undefined> {
  const [after] = await db('webhook_deliveries')
    .where({ id: deliveryId })
    .update({
      attempts: db.raw('attempts + 1'),
      last_http_status: response.status,
      last_error: db.raw(`CASE WHEN status = 'canceled' AND NOT ?::boolean THEN last_error ELSE ? END`, [response.ok, response.error]),
      status: response.ok ? 'delivered' : db.raw('status'),
      delivered_at: response.ok ? db.fn.now() : null,
      updated_at: db.fn.now(),
      attempted_at: attempt ? db.raw('attempted_at[1:?] || ?::timestamptz', [attempt.number - 1, attempt.at]) : db.raw('attempted_at || now()::timestamptz'),
    })
    .returning(['status', 'last_error']);
  return after && { status: after.status, lastError: after.last_error };
}

/** Every attempt failed: the delivery is abandoned. */
export async function abandonDelivery(db: Db, deliveryId: string): Promise<void> {
  await db('webhook_deliveries').where({ id: deliveryId, status: 'pending' }).update({ status: 'abandoned', updated_at: db.fn.now() });
}

/**
 * The hourly purge ("webhook-history-purge" schedule): deliveries and events older than
 * DELIVERY_RETENTION_DAYS, then deleted endpoints with no history left, and the replaced secrets
 * whose overlap is over. Returns the deliveries deleted.
 */
export async function purgeWebhookHistory(db: Db): Promise<number> {
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
}

/**
 * Deliveries not delivered, by state (the worker's metrics): `pending` (never attempted yet),
 * `retrying` (attempted, still pending: on its retry schedule), `abandoned` (gave up, kept 30 days).
 */
export async function countUndeliveredDeliveries(db: Db): Promise<{ pending: number; retrying: number; abandoned: number }> {
  const { rows } = await db.raw<{ rows: { pending: string; retrying: string; abandoned: string }[] }>(`
    SELECT count(*) FILTER (WHERE status = 'pending' AND cardinality(attempted_at) = 0) AS pending,
           count(*) FILTER (WHERE status = 'pending' AND cardinality(attempted_at) > 0) AS retrying,
           count(*) FILTER (WHERE status = 'abandoned') AS abandoned
      FROM webhook_deliveries
     WHERE status IN ('pending', 'abandoned')`);
  const row = rows[0]!;
  return { pending: Number(row.pending), retrying: Number(row.retrying), abandoned: Number(row.abandoned) };
}

/** One page of the account's delivery history (kept DELIVERY_RETENTION_DAYS) with each event's body, in id order after `afterId`: the account's export. */
export async function exportDeliveriesPage(
  db: Db,
  accountId: string,
  afterId: string | undefined,
  limit: number,
): Promise<(DeliveryRecord & { payload: unknown })[]> {
  const query = deliveries(db, accountId)
    .orderBy('d.id')
    .limit(limit)
    .select([...COLUMNS, 'e.payload']);
  if (afterId) query.andWhere('d.id', '>', afterId);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map((row) => ({ ...record(row), payload: row.payload }));
}

/** Ends every pending delivery of the account (`canceled`, with `reason`): a closing account's webhooks stop. */
export async function cancelAccountPendingDeliveries(db: Db, accountId: string, reason: string): Promise<number> {
  return db('webhook_deliveries')
    .where({ account_id: accountId, status: 'pending' })
    .update({ status: 'canceled', last_error: reason, updated_at: db.fn.now() });
}
