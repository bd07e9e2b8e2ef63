import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Db } from '../../db/knex.js';
import type { Config } from '../../lib/config.js';
import { encrypt, randomBase62 } from '../../lib/crypto.js';
import { isPublicAddress, isWebhookPort, WEBHOOK_PORTS } from '../../lib/net/public-address.js';
import { EVENT_TYPES, type EventType } from './event-types.js';

export const MAX_WEBHOOK_ENDPOINTS = 5;

export class WebhookEndpointError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** HTTPS only, and (unless WEBHOOK_ALLOW_PRIVATE=1, local runs only) ports 443 or 8443 of public addresses only. */
export async function checkWebhookUrl(rawUrl: string, config: Config): Promise<URL> {
  let url: URL;
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
export async function createWebhookEndpoint(db: Db, config: Config, input: NewEndpoint): Promise<{ id: string; secret: string }> {
  const unknown = input.events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length) throw new WebhookEndpointError('invalid_events', `Unknown event types: ${unknown.join(', ')}. Known: ${EVENT_TYPES.join(', ')}.`);
  const url = await checkWebhookUrl(input.url, config);
  const secret = `whsec_${randomBase62(32)}`;
  return db.transaction(async (trx) => {
    // Serializes concurrent creations for one account so the limit of 5 holds.
    const account = await trx('accounts').where({ id: input.accountId }).forUpdate().first('id');
    if (!account) throw new WebhookEndpointError('not_found', `No account ${input.accountId}.`);
    const [{ count }] = await trx('webhook_endpoints').where({ account_id: input.accountId }).count<{ count: string }[]>('* as count');
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
    return { id: row.id as string, secret };
  });
}
