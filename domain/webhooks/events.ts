import { preparedQuery, type Db, type Tx } from '../../db/knex.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Deps } from '../deps.js';
import type { Mailing } from '../mailings/mailing.js';
import type { MailingCreated } from '../mailings/workflow-input.js';
import { mailingEventKey, OPT_IN_EVENT_TYPES, type DeliveryTarget, type EventType } from './event-types.js';
import { randomUUID } from 'node:crypto';
import { findWebhookEndpoint } from './endpoints.js';
import { WebhookEndpointError } from './endpoint-error.js';

export interface NewEvent {
  /** The event's id, or (mailing events) what makes the event unique: its id is derived from it. */
  eventId?: string;
  /** Mailing, type and step or proof kind: the same event always gets the same id (retries, Reset). */
  eventKey?: string;
  type: EventType;
  accountId: string;
  livemode: boolean;
  created: string;
  mailing?: Mailing;
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
 * A delivery's id, derived in SQL as uuidFrom derives it from `<event id>/<endpoint id>` (the
 * event's id is `eventId`, an SQL expression; the endpoint is `t`): the same event and endpoint
 * always give the same delivery id, whichever build or statement recorded it first
 * (test/e2e/webhooks.test.ts checks the two against each other).
 */
const derivedDeliveryId = (eventId: string): string => `(SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-5' || substr(h, 14, 3) || '-'
  || to_hex((('x' || substr(h, 17, 1))::bit(4)::int & 3) | 8) || substr(h, 18, 3) || '-' || substr(h, 21, 12))::uuid
  FROM (SELECT encode(sha256(convert_to(${eventId}::text || '/' || t.id::text, 'UTF8')), 'hex') AS h) AS digest)`;

/**
 * The endpoints an event goes to (`targets`): of its account ($2) and environment ($5), neither
 * disabled nor deleted; one endpoint ($8) whatever its filter (a ping); an opt-in type ($4, $9 true)
 * only to endpoints that name it; any other to those that name it or name none; only endpoints
 * declared by $10 when given (mailing.created).
 */
const TARGETS_CTE = `targets AS (
    SELECT t.id FROM webhook_endpoints t
    WHERE t.account_id = $2 AND t.env = CASE WHEN $5 THEN 'live' ELSE 'test' END AND t.disabled_at IS NULL AND t.deleted_at IS NULL
      AND CASE WHEN $8::uuid IS NOT NULL THEN t.id = $8::uuid WHEN $9 THEN $4 = ANY(t.events) ELSE cardinality(t.events) = 0 OR $4 = ANY(t.events) END
      AND ($10::timestamptz IS NULL OR t.created_at <= $10::timestamptz)
  )`;

/**
 * The event (body per SPEC.md "Request received"), the endpoints that receive it and one pending
 * delivery each, as the CTEs `recorded_event`, `targets` and `started` (RETURNING id, endpoint_id):
 * the new deliveries, and those an earlier record of this event left pending (a Reset, a mailing
 * resumed by the reconciler); delivered or abandoned ones are not sent again. Disabled and deleted
 * endpoints receive nothing. An event for one endpoint (a ping) goes to it whatever its filter; an
 * opt-in type only to endpoints that name it; any other to those that name it or name none.
 * Parameters $1–$10, as webhookEventStatement gives them; a statement may add CTEs of its own after.
 */
const EVENT_CTES = `recorded_event AS (
    INSERT INTO webhook_events (id, account_id, shipment_id, type, livemode, payload, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING
  ),
  ${TARGETS_CTE},
  started AS (
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status)
    SELECT ${derivedDeliveryId('$1::uuid')}, $1, t.id, $2, 'pending' FROM targets t
    ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id WHERE webhook_deliveries.status = 'pending'
    RETURNING id, endpoint_id
  )`;

/** What a statement built on EVENT_CTES returns: the deliveries to start. */
const STARTED_DELIVERIES = 'SELECT id, endpoint_id FROM started ORDER BY endpoint_id';

/** An event with its deliveries, in one prepared statement (a mailing records several, each move). */
const RECORD_EVENT_SQL = `WITH ${EVENT_CTES} ${STARTED_DELIVERIES}`;

/** An event ready to record: the parameters of EVENT_CTES, and what its rows mean. */
export interface EventStatement {
  /** $1–$10 of EVENT_CTES. */
  parameters: unknown[];
  deliveries(rows: { id: string; endpoint_id: string }[]): DeliveryTarget[];
}

/**
 * A statement that records an event with its deliveries and adds its own writes (`ctes`, which
 * number their parameters from $11): a new mailing is recorded with its `mailing.created`
 * (domain/mailings/create.ts). It returns the event's deliveries to start.
 */
export function withEventSql(ctes: string): string {
  return `WITH ${EVENT_CTES}, ${ctes} ${STARTED_DELIVERIES}`;
}

/**
 * Records the event and one pending delivery per matching endpoint of the right environment;
 * returns the deliveries to start: those still pending. Repeating it creates nothing twice.
 */
export async function recordWebhookEvent(db: Db | Tx, event: NewEvent): Promise<DeliveryTarget[]> {
  const statement = webhookEventStatement(event);
  return statement.deliveries(await preparedQuery<{ id: string; endpoint_id: string }>(db, 'record-event', RECORD_EVENT_SQL, statement.parameters));
}

/**
 * RECORD_EVENT_SQL for many events at once, of one type, account, environment, creation time and
 * endpoint filter: $1, $3 and $6 are arrays (the events' ids, mailings and payloads), the other
 * parameters are EVENT_CTES's. The same rows, with the same ids, as recorded one by one.
 */
const RECORD_EVENTS_SQL = `WITH recorded_events AS (
    INSERT INTO webhook_events (id, account_id, shipment_id, type, livemode, payload, created_at)
    SELECT e.id, $2, e.shipment_id, $4, $5, e.payload, $7 FROM unnest($1::uuid[], $3::uuid[], $6::jsonb[]) AS e(id, shipment_id, payload)
    ON CONFLICT (id) DO NOTHING
    RETURNING id
  ),
  ${TARGETS_CTE}
  INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, status)
  SELECT ${derivedDeliveryId('e.id')}, e.id, t.id, $2, 'pending' FROM recorded_events e CROSS JOIN targets t
  ON CONFLICT (id) DO NOTHING`;

/** The parameters of EVENT_CTES that differ between events recorded together (their id, mailing and payload); they share the others. */
const PER_EVENT_PARAMETERS = [0, 2, 5];

/**
 * Records events that differ only by their mailing (a batch's `mailing.created`, in the
 * transaction that records the batch) and their pending deliveries, in one statement: what
 * recordWebhookEvent would record for each. The deliveries are read back when the mailings'
 * workflows start (mailingsCreated).
 */
export async function recordMailingEvents(trx: Tx, events: NewEvent[]): Promise<void> {
  const statements = events.map(webhookEventStatement);
  const first = statements[0]?.parameters;
  if (!first) return;
  const shared = (i: number): boolean => !PER_EVENT_PARAMETERS.includes(i);
  for (const { parameters } of statements)
    if (parameters.some((value, i) => shared(i) && String(value) !== String(first[i])))
      throw new Error('events recorded together share their type, account, environment, time and endpoint filter');
  await preparedQuery(
    trx,
    'record-events',
    RECORD_EVENTS_SQL,
    first.map((value, i) => (shared(i) ? value : statements.map(({ parameters }) => parameters[i]))),
  );
}

/** The id of a mailing's `mailing.created` (as webhookEventStatement derives it from the event's key). */
export function mailingCreatedEventId(mailingId: string): string {
  return uuidFrom(`event/${mailingEventKey(mailingId, 'mailing.created', 0)}`);
}

/**
 * The `mailing.created` already recorded for these mailings (a batch's, see recordMailingEvents),
 * as a workflow starts with it: the mailing as announced and its deliveries still pending. A
 * mailing whose event is not recorded is absent (its workflow records the event itself).
 */
export async function mailingsCreated(db: Db | Tx, mailingIds: string[]): Promise<Map<string, MailingCreated>> {
  const rows = await preparedQuery<{
    shipment_id: string;
    event_id: string;
    account_id: string;
    mailing: Mailing;
    deliveries: { id: string; endpoint_id: string }[];
  }>(
    db,
    'mailings-created',
    `SELECT e.shipment_id, e.id AS event_id, e.account_id, e.payload #> '{data,mailing}' AS mailing,
            COALESCE(json_agg(json_build_object('id', d.id, 'endpoint_id', d.endpoint_id) ORDER BY d.endpoint_id) FILTER (WHERE d.id IS NOT NULL), '[]') AS deliveries
       FROM webhook_events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id AND d.status = 'pending'
      WHERE e.id = ANY($1::uuid[])
      GROUP BY e.id`,
    [mailingIds.map(mailingCreatedEventId)],
  );
  return new Map(
    rows.map((row) => [
      row.shipment_id,
      {
        mailing: row.mailing,
        deliveries: row.deliveries.map((d) => ({
          deliveryId: d.id,
          accountId: row.account_id,
          endpointId: d.endpoint_id,
          eventId: row.event_id,
          eventType: 'mailing.created',
        })),
      },
    ]),
  );
}

/** The event's row and filter as the parameters of EVENT_CTES. */
export function webhookEventStatement(event: NewEvent): EventStatement {
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
  return {
    parameters: [
      eventId,
      event.accountId,
      event.mailing?.id ?? null,
      event.type,
      event.livemode,
      JSON.stringify(payload),
      event.created,
      event.endpointId ?? null,
      OPT_IN_EVENT_TYPES.includes(event.type),
      event.endpointsCreatedBy ?? null,
    ],
    deliveries: (rows) =>
      rows.map((d) => ({
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
    await deps.workflows.webhooks.startDelivery(delivery);
  } catch (error) {
    // Not started: the test event never happened (the developer tries again).
    await deps.db('webhook_events').where({ id: eventId }).delete();
    throw error;
  }
  return { deliveryId: delivery.deliveryId, endpointId: found.id, eventId };
}

/**
 * The recipient and letter title of a mailing, erased from the payloads of its events
 * (domain/privacy/erasure.ts): what a redelivery or the developer space's history shows afterwards.
 * Returns how many events were rewritten.
 */
export async function eraseMailingFromEvents(trx: Tx, mailingId: string, erased: { recipient: string[]; title: string; erasedAt: string }): Promise<number> {
  const { rowCount } = (await trx.raw(
    `UPDATE webhook_events
        SET payload = jsonb_set(jsonb_set(jsonb_set(payload, '{data,mailing,recipient}', ?::jsonb), '{data,mailing,title}', to_jsonb(?::text)),
                      '{data,mailing,erasedAt}', to_jsonb(?::text))
      WHERE shipment_id = ? AND payload #> '{data,mailing}' IS NOT NULL`,
    [JSON.stringify(erased.recipient), erased.title, erased.erasedAt, mailingId],
  )) as { rowCount: number };
  return rowCount;
}
