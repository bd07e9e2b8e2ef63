import { parseArgs } from 'node:util';
import { config as loadConfig } from '../lib/config.js';
import { openToolDatabase } from './local/database.js';
import type { Db } from '../db/knex.js';
import { createApiKey, hashApiKey, KEY_PATTERN } from '../domain/access/keys.js';
import { isScope, SCOPES, type Scope } from '../domain/access/scopes.js';
import { topUp } from '../domain/billing/ledger.js';
import { createWebhookEndpoint, WebhookEndpointError } from '../domain/webhooks/endpoints.js';
import { pingEndpoint } from '../domain/webhooks/events.js';
import { connectTemporal, domainDeps } from '../workflows/client.js';
import { toolTemporalAddress } from './local/database.js';
import type { Config } from '../lib/config.js';
import { REQUEST_STATUSES, serviceRequest, setServiceRequestStatus, type RequestStatus, type ServiceRequestRow } from '../domain/requests/service-requests.js';

/** The domain's ping, with a Temporal client for this one command. */
async function ping(db: Db, config: Config, endpoint: { id: string; account_id: string; env: string }): Promise<unknown> {
  const temporal = await connectTemporal(toolTemporalAddress(config), config.temporalNamespace);
  try {
    return await pingEndpoint(domainDeps(db, config, temporal.client), endpoint);
  } finally {
    await temporal.connection.close();
  }
}

/**
 * The "developer space" operations of DESIGN.md §3, for operators and scripts: JSON on stdout,
 * exit 0 on success; a JSON error and exit 1 (usage) or 2 (refused) otherwise.
 */
class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

const usage = `usage:
  admin account create --name NAME [--live-enabled]
  admin account suspend|unsuspend|live-enable --account ID
  admin key create --account ID --mode test|live [--scopes a,b]
  admin key revoke --key KEY_OR_ID
  admin balance topup --account ID --cents N
  admin webhook create --account ID --url URL --env test|live [--events a,b]
  admin webhook deliveries --account ID [--limit N]
  admin webhook ping --id ENDPOINT_ID
  admin request list [--status S] [--account ID] [--limit N]
  admin request set-status --id ID --status received|in_review|planned|published|declined [--note TEXT]`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new CliError('invalid_arguments', `--${name} is required\n${usage}`, 1);
  return value;
}

function requestStatus(value: string): RequestStatus {
  if (!(REQUEST_STATUSES as readonly string[]).includes(value)) throw new CliError('invalid_arguments', `--status is one of ${REQUEST_STATUSES.join(', ')}`, 1);
  return value as RequestStatus;
}

async function accountExists(db: Db, id: string): Promise<void> {
  if (!UUID.test(id) || !(await db('accounts').where({ id }).first('id'))) throw new CliError('not_found', `No account ${id}.`);
}

async function run(db: Db, command: string, values: Record<string, string | boolean | undefined>): Promise<unknown> {
  const config = loadConfig();
  switch (command) {
    case 'account create': {
      const [row] = await db('accounts')
        .insert({ name: required(values, 'name'), live_enabled: values['live-enabled'] === true })
        .returning('id');
      return { id: row.id };
    }
    case 'account suspend':
    case 'account unsuspend':
    case 'account live-enable': {
      const id = required(values, 'account');
      await accountExists(db, id);
      const change = command === 'account live-enable' ? { live_enabled: true } : { status: command === 'account suspend' ? 'suspended' : 'active' };
      const [row] = await db('accounts').where({ id }).update(change).returning(['id', 'status', 'live_enabled']);
      return { id: row.id, status: row.status, liveEnabled: row.live_enabled };
    }
    case 'key create': {
      const account = required(values, 'account');
      await accountExists(db, account);
      const mode = required(values, 'mode');
      if (mode !== 'test' && mode !== 'live') throw new CliError('invalid_arguments', '--mode is test or live', 1);
      const scopes =
        typeof values.scopes === 'string'
          ? values.scopes
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [...SCOPES];
      const unknown = scopes.filter((s) => !isScope(s));
      if (unknown.length || scopes.length === 0)
        throw new CliError('invalid_arguments', `Unknown scopes: ${unknown.join(', ') || '(none given)'}. Known: ${SCOPES.join(', ')}`, 1);
      return createApiKey(db, account, mode, scopes as Scope[]);
    }
    case 'key revoke': {
      const target = required(values, 'key');
      const where = KEY_PATTERN.test(target) ? { key_hash: hashApiKey(target) } : UUID.test(target) ? { id: target } : undefined;
      if (!where) throw new CliError('invalid_arguments', '--key is an API key or a key id', 1);
      const [row] = await db('api_keys')
        .where(where)
        .update({ revoked_at: db.raw('coalesce(revoked_at, now())') })
        .returning(['id', 'revoked_at']);
      if (!row) throw new CliError('not_found', 'No such key.');
      return { id: row.id, revokedAt: row.revoked_at };
    }
    case 'balance topup': {
      const account = required(values, 'account');
      await accountExists(db, account);
      const cents = Number(required(values, 'cents'));
      if (!Number.isSafeInteger(cents) || cents <= 0) throw new CliError('invalid_arguments', '--cents is a positive whole number of euro cents', 1);
      return { balanceCents: await topUp(db, account, cents, 'admin topup') };
    }
    case 'webhook create': {
      const account = required(values, 'account');
      await accountExists(db, account);
      const env = required(values, 'env');
      if (env !== 'test' && env !== 'live') throw new CliError('invalid_arguments', '--env is test or live', 1);
      const events =
        typeof values.events === 'string'
          ? values.events
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [];
      try {
        return await createWebhookEndpoint(db, config, { accountId: account, url: required(values, 'url'), env, events });
      } catch (error) {
        if (error instanceof WebhookEndpointError) throw new CliError(error.code, error.message);
        throw error;
      }
    }
    case 'webhook deliveries': {
      const account = required(values, 'account');
      await accountExists(db, account);
      const limit = Math.min(500, Number(values.limit ?? 100) || 100);
      const rows = await db('webhook_deliveries as d')
        .join('webhook_events as e', 'e.id', 'd.event_id')
        .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
        .where('d.account_id', account)
        .orderBy('d.created_at', 'desc')
        .limit(limit)
        .select(
          'd.id',
          'e.id as event_id',
          'e.type',
          'w.id as endpoint_id',
          'w.url',
          'd.status',
          'd.attempts',
          'd.last_http_status',
          'd.last_error',
          'd.created_at',
          'd.updated_at',
          'd.delivered_at',
        );
      return {
        data: rows.map((r) => ({
          id: r.id,
          eventId: r.event_id,
          type: r.type,
          endpointId: r.endpoint_id,
          url: r.url,
          status: r.status,
          attempts: r.attempts,
          lastHttpStatus: r.last_http_status,
          lastError: r.last_error,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
          deliveredAt: r.delivered_at,
        })),
      };
    }
    case 'webhook ping': {
      const endpointId = required(values, 'id');
      const endpoint = UUID.test(endpointId) ? await db('webhook_endpoints').where({ id: endpointId }).first() : undefined;
      if (!endpoint) throw new CliError('not_found', `No webhook endpoint ${endpointId}.`);
      return ping(db, config, endpoint);
    }
    case 'request list': {
      let q = db('service_requests')
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(Math.min(500, Number(values.limit ?? 100) || 100));
      if (typeof values.status === 'string') q = q.where({ status: requestStatus(values.status) });
      if (typeof values.account === 'string') q = q.where({ account_id: values.account });
      const rows = (await q) as ServiceRequestRow[];
      return { data: rows.map((row) => ({ ...serviceRequest(row), accountId: row.account_id })) };
    }
    case 'request set-status': {
      const id = required(values, 'id');
      const status = requestStatus(required(values, 'status'));
      const row = UUID.test(id) ? await setServiceRequestStatus(db, id, status, typeof values.note === 'string' ? values.note : undefined) : undefined;
      if (!row) throw new CliError('not_found', `No service request ${id}.`);
      return { ...serviceRequest(row), accountId: row.account_id };
    }
    default:
      throw new CliError('unknown_command', `Unknown command "${command}".\n${usage}`, 1);
  }
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        'live-enabled': { type: 'boolean' },
        account: { type: 'string' },
        mode: { type: 'string' },
        scopes: { type: 'string' },
        key: { type: 'string' },
        cents: { type: 'string' },
        url: { type: 'string' },
        env: { type: 'string' },
        events: { type: 'string' },
        id: { type: 'string' },
        status: { type: 'string' },
        note: { type: 'string' },
        limit: { type: 'string' },
      },
    });
  } catch (error) {
    console.log(JSON.stringify({ error: { code: 'invalid_arguments', message: (error as Error).message } }));
    return 1;
  }
  const command = parsed.positionals.slice(0, 2).join(' ');
  const { db, close } = await openToolDatabase(loadConfig());
  try {
    console.log(JSON.stringify(await run(db, command, parsed.values)));
    return 0;
  } catch (error) {
    const cli = error instanceof CliError ? error : new CliError('internal_error', (error as Error).message);
    console.log(JSON.stringify({ error: { code: cli.code, message: cli.message } }));
    return cli.exitCode;
  } finally {
    await close();
  }
}

process.exitCode = await main();
