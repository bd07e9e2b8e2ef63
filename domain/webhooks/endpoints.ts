import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Db } from '../../db/knex.js';
import type { Config } from '../../lib/config.js';
import { encrypt, randomBase62 } from '../../lib/crypto.js';
import { isUuid } from '../../lib/text.js';
import { isPublicAddress, isWebhookPort, WEBHOOK_PORTS } from '../../lib/net/public-address.js';
import { EVENT_TYPES, type EventType } from './event-types.js';
import { recordAudit, type Actor } from '../access/audit.js';
import { WebhookEndpointError } from './endpoint-error.js';
import { cancelAccountPendingDeliveries, cancelPendingDeliveries } from './deliveries.js';

/** A closing (or closed) account gets no new endpoint, and enables none again: its webhooks are stopped. */
const accountClosing = (): WebhookEndpointError =>
  new WebhookEndpointError('account_closing', 'This account is closing: its webhooks are stopped until the closing is canceled.');

/** SPEC.md "Limits": webhook addresses per account (deleted ones do not count). */
export const MAX_WEBHOOK_ENDPOINTS = 5;
/** After a rotation, the replaced secret keeps signing this long (docs/webhooks.md). */
export const SECRET_OVERLAP_MS = 24 * 3600_000;
/** Longer addresses are refused (ours, not SPEC.md's: a sane bound for a form and a log line). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** HTTPS only, and (unless WEBHOOK_ALLOW_PRIVATE=1, local runs only) ports 443 or 8443 of public addresses only. */
export async function checkWebhookUrl(rawUrl: string, config: Config): Promise<URL> {
  let url: URL;
  if (rawUrl.length > MAX_WEBHOOK_URL_LENGTH)
    throw new WebhookEndpointError('invalid_url', `Webhook addresses have at most ${MAX_WEBHOOK_URL_LENGTH} characters.`);
  try {
    url = new URL(rawUrl);
  } catch {
    throw new WebhookEndpointError('invalid_url', `"${rawUrl}" is not a URL.`);
  }
  if (url.protocol !== 'https:') throw new WebhookEndpointError('https_required', 'Webhook addresses must use HTTPS.');
  if (url.username || url.password) throw new WebhookEndpointError('invalid_url', 'Webhook addresses cannot carry credentials.');
  if (config.webhookAllowPrivate) return url;
  if (!isWebhookPort(url)) throw new WebhookEndpointError('port_not_allowed', `Webhook addresses use port ${WEBHOOK_PORTS.join(' or ')}.`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new WebhookEndpointError('unresolvable_host', `${host} does not resolve.`);
  const refused = addresses.filter((a) => !isPublicAddress(a));
  if (refused.length) throw new WebhookEndpointError('private_address', `${host} resolves to a non-public address (${refused.join(', ')}).`);
  return url;
}

export interface NewEndpoint {
  accountId: string;
  url: string;
  env: 'test' | 'live';
  events: string[];
}

/** Declares an endpoint; its `whsec_` signing secret is returned once and stored encrypted. */
export async function createWebhookEndpoint(db: Db, config: Config, input: NewEndpoint, actor?: Actor): Promise<{ id: string; secret: string }> {
  const unknown = input.events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length) throw new WebhookEndpointError('invalid_events', `Unknown event types: ${unknown.join(', ')}. Known: ${EVENT_TYPES.join(', ')}.`);
  const url = await checkWebhookUrl(input.url, config);
  const secret = `whsec_${randomBase62(32)}`;
  return db.transaction(async (trx) => {
    // Serializes concurrent creations for one account so the limit of 5 holds.
    const account = await trx('accounts').where({ id: input.accountId }).forUpdate().first('id', 'closure');
    if (!account) throw new WebhookEndpointError('not_found', `No account ${input.accountId}.`);
    if (account.closure !== null) throw accountClosing();
    const [{ count }] = await trx('webhook_endpoints').where({ account_id: input.accountId }).whereNull('deleted_at').count<{ count: string }[]>('* as count');
    if (Number(count) >= MAX_WEBHOOK_ENDPOINTS)
      throw new WebhookEndpointError('limit_reached', `An account has at most ${MAX_WEBHOOK_ENDPOINTS} webhook addresses.`);
    const [row] = await trx('webhook_endpoints')
      .insert({
        account_id: input.accountId,
        url: url.toString(),
        env: input.env,
        events: input.events as EventType[],
        secret_sealed: encrypt(secret, config.secretKey),
      })
      .returning('id');
    await recordAudit(trx, actor, {
      accountId: input.accountId,
      action: 'webhook.created',
      target: { type: 'webhook', id: row.id },
      details: { url: url.toString(), env: input.env, events: input.events },
    });
    return { id: row.id as string, secret };
  });
}

/** An endpoint as its owner sees it (never its secret). */
export interface EndpointSummary {
  id: string;
  url: string;
  env: 'test' | 'live';
  /** Empty: every event type. */
  events: EventType[];
  createdAt: Date;
  disabledAt: Date | null;
  secretRotatedAt: Date | null;
  /** Until when the secret replaced by the last rotation still signs (null: none does). */
  previousSecretExpiresAt: Date | null;
}

function summary(row: Record<string, unknown>): EndpointSummary {
  const expires = row.previous_secret_expires_at as Date | null;
  return {
    id: row.id as string,
    url: row.url as string,
    env: row.env as 'test' | 'live',
    events: row.events as EventType[],
    createdAt: row.created_at as Date,
    disabledAt: row.disabled_at as Date | null,
    secretRotatedAt: row.secret_rotated_at as Date | null,
    previousSecretExpiresAt: expires && expires.getTime() > Date.now() ? expires : null,
  };
}

const SUMMARY_COLUMNS = ['id', 'url', 'env', 'events', 'created_at', 'disabled_at', 'secret_rotated_at', 'previous_secret_expires_at'];

/** The account's endpoints (deleted ones excepted), oldest first. */
export async function listWebhookEndpoints(db: Db, accountId: string): Promise<EndpointSummary[]> {
  const rows = await db('webhook_endpoints')
    .where({ account_id: accountId })
    .whereNull('deleted_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(SUMMARY_COLUMNS);
  return rows.map(summary);
}

/** One endpoint of the account, not deleted; otherwise not_found. */
export async function findWebhookEndpoint(db: Db, accountId: string, id: string): Promise<EndpointSummary> {
  const row = isUuid(id) ? await db('webhook_endpoints').where({ id, account_id: accountId }).whereNull('deleted_at').first(SUMMARY_COLUMNS) : undefined;
  if (!row) throw new WebhookEndpointError('not_found', `No webhook endpoint ${id} for this account.`);
  return summary(row);
}

/**
 * Disables (nothing is sent to it any more: new events skip it and its pending deliveries are
 * canceled) or re-enables an endpoint. Re-enabling does not bring back canceled deliveries: resend
 * them from the delivery log.
 */
export async function setWebhookEndpointEnabled(db: Db, accountId: string, id: string, enabled: boolean, actor?: Actor): Promise<EndpointSummary> {
  await findWebhookEndpoint(db, accountId, id);
  return db.transaction(async (trx) => {
    // Only a change of state is recorded in the audit log: the row is locked to know the state it had.
    // A closing account's webhooks stay stopped (the account's row locked: a confirmation cannot come between).
    if (enabled && (await trx('accounts').where({ id: accountId }).forShare().first('closure'))?.closure !== null) throw accountClosing();
    const before = await trx('webhook_endpoints').where({ id, account_id: accountId }).forUpdate().first('disabled_at', 'url');
    await trx('webhook_endpoints')
      .where({ id, account_id: accountId })
      .update({ disabled_at: enabled ? null : trx.raw('coalesce(disabled_at, now())') });
    if (!enabled) await cancelPendingDeliveries(trx, id, 'endpoint disabled');
    if (before && (before.disabled_at === null) !== enabled)
      await recordAudit(trx, actor, {
        accountId,
        action: enabled ? 'webhook.enabled' : 'webhook.disabled',
        target: { type: 'webhook', id },
        details: { url: before.url },
      });
    return findWebhookEndpoint(trx, accountId, id);
  });
}

/**
 * Deletes an endpoint: it receives nothing more (pending deliveries canceled) and no longer counts
 * towards MAX_WEBHOOK_ENDPOINTS. Its secrets are erased at once; the row itself (its URL) stays
 * while its delivery history is kept (DELIVERY_RETENTION_DAYS), then the history purge removes it.
 */
export async function deleteWebhookEndpoint(db: Db, accountId: string, id: string, actor?: Actor): Promise<void> {
  const endpoint = await findWebhookEndpoint(db, accountId, id);
  await db.transaction(async (trx) => {
    const deleted = await trx('webhook_endpoints').where({ id, account_id: accountId }).whereNull('deleted_at').update({
      deleted_at: trx.fn.now(),
      secret_sealed: null,
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
    });
    await cancelPendingDeliveries(trx, id, 'endpoint deleted');
    if (deleted) await recordAudit(trx, actor, { accountId, action: 'webhook.deleted', target: { type: 'webhook', id }, details: { url: endpoint.url } });
  });
}

/**
 * A new signing secret, returned once and stored encrypted. The replaced one keeps signing for
 * SECRET_OVERLAP_MS (each attempt then carries both signatures); a second rotation within that
 * time ends the overlap of the first one.
 */
export async function rotateWebhookSecret(
  db: Db,
  config: Config,
  accountId: string,
  id: string,
  actor?: Actor,
): Promise<{ secret: string; previousExpiresAt: Date }> {
  const endpoint = await findWebhookEndpoint(db, accountId, id);
  const secret = `whsec_${randomBase62(32)}`;
  const previousExpiresAt = new Date(Date.now() + SECRET_OVERLAP_MS);
  return db.transaction(async (trx) => {
    const updated = await trx('webhook_endpoints')
      .where({ id, account_id: accountId })
      .whereNull('deleted_at')
      .update({
        previous_secret_sealed: trx.raw('secret_sealed'),
        previous_secret_expires_at: previousExpiresAt,
        secret_sealed: encrypt(secret, config.secretKey),
        secret_rotated_at: trx.fn.now(),
      });
    if (!updated) throw new WebhookEndpointError('not_found', `No webhook endpoint ${id} for this account.`);
    await recordAudit(trx, actor, { accountId, action: 'webhook.secret_rotated', target: { type: 'webhook', id }, details: { url: endpoint.url } });
    return { secret, previousExpiresAt };
  });
}

/** Every endpoint of the account, deleted ones included, without their secrets: the account's export. */
export async function exportWebhookEndpoints(db: Db, accountId: string): Promise<(EndpointSummary & { deletedAt: Date | null })[]> {
  const rows = await db('webhook_endpoints')
    .where({ account_id: accountId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select([...SUMMARY_COLUMNS, 'deleted_at']);
  return rows.map((row) => ({ ...summary(row), deletedAt: row.deleted_at as Date | null }));
}

/**
 * A closing account's webhooks stop (issue 53): each enabled endpoint is disabled, marked as
 * disabled by the closing, and its pending deliveries end (`canceled`: a delivery waiting for its
 * next retry is not attempted again). Within the confirmation's transaction.
 */
export async function stopAccountWebhooks(trx: Db, accountId: string): Promise<{ endpoints: number; deliveries: number }> {
  const endpoints = await trx('webhook_endpoints')
    .where({ account_id: accountId })
    .whereNull('disabled_at')
    .whereNull('deleted_at')
    .update({ disabled_at: trx.fn.now(), disabled_by_closing: true })
    .returning('id');
  const deliveries = await cancelAccountPendingDeliveries(trx, accountId, 'account closing');
  return { endpoints: endpoints.length, deliveries };
}

/** A canceled closing enables again the endpoints it had disabled (the deliveries it ended stay ended). */
export async function resumeAccountWebhooks(trx: Db, accountId: string): Promise<number> {
  return trx('webhook_endpoints')
    .where({ account_id: accountId, disabled_by_closing: true })
    .whereNull('deleted_at')
    .update({ disabled_at: null, disabled_by_closing: false });
}

/** A closed account's endpoints erased: deleted, their URL and secrets gone (the delivery history keeps their ids). */
export async function eraseAccountEndpoints(trx: Db, accountId: string): Promise<number> {
  return trx('webhook_endpoints')
    .where({ account_id: accountId })
    .update({
      url: 'https://erased.invalid/',
      secret_sealed: '',
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      disabled_at: trx.raw('coalesce(disabled_at, now())'),
      deleted_at: trx.raw('coalesce(deleted_at, now())'),
    });
}
