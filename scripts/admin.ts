import { setLogRole } from '../lib/logger.js';
import { operatorCosts } from '../domain/mailings/projection.js';
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.js';
import { openToolDatabase } from './local/database.js';
import type { Db } from '../db/knex.js';
import { createApiKey, KEY_PATTERN, revokeApiKey } from '../domain/access/keys.js';
import { accountRetentionDays, changeAccount, createAccount, requireAccount, setAccountRetentionDays } from '../domain/access/accounts.js';
import { cancelClosing, closeAccount, closeByOperator } from '../domain/access/closing.js';
import { exportAccount } from '../domain/privacy/export.js';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ADMIN_CLI } from '../domain/access/audit.js';
import { setAiEnabled } from '../domain/access/ai-consent.js';
import { aiProvider } from '../domain/privacy/processors.js';
import { pendingProductionAccess } from '../domain/access/production-requests.js';
import { DomainError, NotFound } from '../domain/errors.js';
import { eraseMailingPersonalData } from '../domain/privacy/erasure.js';
import { useConfiguredDocumentStore } from '../domain/documents/configured.js';
import { migrateDocumentsToStore } from '../domain/documents/migrate.js';
import {
  ARCHIVE_INCLUDED_YEARS,
  ARCHIVE_YEARS,
  isArchiveYears,
  isReturnEnvelopeType,
  postalSettings,
  RETURN_ENVELOPE_TYPES,
  setArchiveYears,
  setReturnEnvelope,
  type ArchiveApi,
} from '../domain/access/postal-settings.js';
import { isAllowedRetention, MAILING_RETENTION_MAX_DAYS, MAILING_RETENTION_MIN_DAYS } from '../domain/privacy/retention.js';
import { listDeliveries } from '../domain/webhooks/deliveries.js';
import { isScope, SCOPES, type Scope } from '../domain/access/scopes.js';
import { topUp } from '../domain/billing/ledger.js';
import { createWebhookEndpoint } from '../domain/webhooks/endpoints.js';
import { WebhookEndpointError } from '../domain/webhooks/endpoint-error.js';
import { pingEndpoint } from '../domain/webhooks/events.js';
import { connectTemporal } from '../temporal/connection.js';
import { domainDeps } from '../temporal/domain-deps.js';
import { toolTemporalAddress } from './local/database.js';
import type { Config } from '../lib/config.js';
import { listServiceRequests, REQUEST_STATUSES, serviceRequest, setServiceRequestStatus, type RequestStatus } from '../domain/requests/service-requests.js';

setLogRole('admin');

/** The domain's ping, with a Temporal client for this one command. */
async function ping(db: Db, config: Config, endpoint: { id: string; account_id: string; env: string }): Promise<unknown> {
  const temporal = await connectTemporal(toolTemporalAddress(config), config.temporalNamespace, config);
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
  admin account pending
  admin account ai-enable|ai-disable --account ID
  admin account retention --account ID [--days N]
  admin account return-envelope --account ID [--type FRANKING_ENVELOPE|PREPAID_ENVELOPE --id UUID | --clear]
  admin account archive --account ID [--simple 0|1|3|6|10|default] [--registered 3|6|10|default]
  admin account export --account ID --out FILE
  admin account close --account ID [--now]
  admin account close-cancel --account ID
  admin key create --account ID --mode test|live [--scopes a,b]
  admin key revoke --key KEY_OR_ID
  admin balance topup --account ID --cents N
  admin webhook create --account ID --url URL --env test|live [--events a,b]
  admin webhook deliveries --account ID [--limit N]
  admin webhook ping --id ENDPOINT_ID
  admin mailing costs [--account ID] [--id SHIPMENT_ID] [--limit N]
  admin mailing erase --id SHIPMENT_ID
  admin documents migrate [--batch N] [--account ID]
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

/** "a, b,c" → ["a", "b", "c"]; undefined when the option is absent. */
function commaList(value: string | boolean | undefined): string[] | undefined {
  return typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : undefined;
}

/** --limit N: at most 500, 100 when absent. */
function limitOf(values: Record<string, unknown>): number {
  return Math.min(500, Number(values.limit ?? 100) || 100);
}

/** The domain's refusals in the CLI's words. */
async function accountExists(db: Db, id: string): Promise<void> {
  try {
    await requireAccount(db, id);
  } catch (error) {
    if (error instanceof NotFound) throw new CliError('not_found', error.message);
    throw error;
  }
}

async function run(db: Db, command: string, values: Record<string, string | boolean | undefined>): Promise<unknown> {
  const config = loadConfig();
  switch (command) {
    case 'account create':
      return createAccount(db, { name: required(values, 'name'), liveEnabled: values['live-enabled'] === true });
    case 'account suspend':
    case 'account unsuspend':
    case 'account live-enable': {
      const id = required(values, 'account');
      await accountExists(db, id);
      return changeAccount(db, id, command === 'account live-enable' ? { liveEnabled: true } : { suspended: command === 'account suspend' }, ADMIN_CLI);
    }
    case 'account ai-enable':
    case 'account ai-disable': {
      // The AI features of the account (POST /v1/ai/*): what a live key sends goes to the configured provider.
      const id = required(values, 'account');
      await accountExists(db, id);
      const provider = aiProvider(config);
      const consent = await setAiEnabled(db, id, command === 'account ai-enable', ADMIN_CLI, provider);
      return {
        id,
        aiEnabled: consent.enabled,
        aiEnabledAt: consent.enabledAt,
        aiEnabledBy: consent.enabledBy,
        provider: { name: provider.name, host: provider.host },
      };
    }
    case 'account export': {
      // Everything held for the account, as one .tar.gz (docs/developer-space.md, "Export").
      const id = required(values, 'account');
      await accountExists(db, id);
      const file = resolve(required(values, 'out'));
      const partial = `${file}.partial`;
      try {
        const { bytes, counts } = await exportAccount(db, config.secretKey, id, ADMIN_CLI, createWriteStream(partial));
        await rename(partial, file);
        return { file, bytes, counts };
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    }
    case 'account close': {
      // At the customer's written request: confirmed at once; --now skips the grace period.
      const id = required(values, 'account');
      await accountExists(db, id);
      const now = values.now === true;
      const closing = await closeByOperator(db, config, id, { now, actor: ADMIN_CLI });
      if ('kind' in closing) return { accountId: id, closure: 'closed' };
      if (!now) return { accountId: id, closure: 'closing', closesAt: closing.closesAt };
      const outcome = await closeAccount(db, config.secretKey, id, { force: true });
      return outcome.kind === 'closed'
        ? { accountId: id, closure: 'closed', refundDueCents: outcome.refundDueCents, ledgerEntryId: outcome.ledgerEntryId, erased: outcome.erased }
        : { accountId: id, closure: 'closing', closesAt: closing.closesAt, mailingsInFlight: outcome.kind === 'waiting' ? outcome.mailingsInFlight : 0 };
    }
    case 'account close-cancel': {
      const id = required(values, 'account');
      await accountExists(db, id);
      if ((await cancelClosing(db, id, ADMIN_CLI)) === 'none')
        throw new CliError('not_closing', 'This account has no closing to cancel (never asked, or already closed).');
      return { accountId: id, closure: null };
    }
    case 'account pending':
      // Production access requests waiting for `account live-enable`, oldest first.
      return { data: await pendingProductionAccess(db) };
    case 'account retention': {
      // How long the account's final mailings keep their personal data (docs/retention.md); --days sets it.
      const id = required(values, 'account');
      await accountExists(db, id);
      const bounds = { minDays: MAILING_RETENTION_MIN_DAYS, maxDays: MAILING_RETENTION_MAX_DAYS };
      if (values.days === undefined) return { accountId: id, retentionDays: await accountRetentionDays(db, id), ...bounds };
      const days = Number(values.days);
      if (!isAllowedRetention(days))
        throw new CliError('invalid_arguments', `--days is a whole number of days from ${MAILING_RETENTION_MIN_DAYS} to ${MAILING_RETENTION_MAX_DAYS}`, 1);
      const { before } = await setAccountRetentionDays(db, id, days, ADMIN_CLI);
      return { accountId: id, retentionDays: days, previousDays: before, ...bounds };
    }
    case 'account return-envelope': {
      // The account's return envelope at the operator (docs/operators.md): shown, set (--type and --id) or removed (--clear).
      const id = required(values, 'account');
      await accountExists(db, id);
      if (values.clear === true) {
        const { before } = await setReturnEnvelope(db, id, null, ADMIN_CLI);
        return { accountId: id, returnEnvelope: null, previous: before };
      }
      if (values.type === undefined && values.id === undefined) return { accountId: id, returnEnvelope: (await postalSettings(db, id)).returnEnvelope };
      const type = required(values, 'type');
      const envelopeId = required(values, 'id');
      if (!isReturnEnvelopeType(type)) throw new CliError('invalid_arguments', `--type is ${RETURN_ENVELOPE_TYPES.join(' or ')}`, 1);
      if (!UUID.test(envelopeId)) throw new CliError('invalid_arguments', "--id is the operator's envelope identifier (a UUID)", 1);
      const envelope = { type, id: envelopeId.toLowerCase() };
      const { before } = await setReturnEnvelope(db, id, envelope, ADMIN_CLI);
      return { accountId: id, returnEnvelope: envelope, previous: before };
    }
    case 'account archive': {
      // How long the operator archives the account's letters, per API (docs/operators.md); "default": the API's own.
      const id = required(values, 'account');
      await accountExists(db, id);
      const allowed = { simple: ARCHIVE_YEARS.simple, registered: ARCHIVE_YEARS.registered };
      const change: Partial<Record<ArchiveApi, number | null>> = {};
      for (const api of ['simple', 'registered'] as const) {
        const given = values[api];
        if (given === undefined) continue;
        const years = given === 'default' ? null : /^\d{1,2}$/.test(String(given)) ? Number(given) : NaN;
        if (years !== null && !isArchiveYears(api, years))
          throw new CliError('invalid_arguments', `--${api} is one of ${ARCHIVE_YEARS[api].join(', ')} (years) or default`, 1);
        change[api] = years;
      }
      const included = ARCHIVE_INCLUDED_YEARS;
      if (Object.keys(change).length === 0) return { accountId: id, archiveYears: (await postalSettings(db, id)).archiveYears, allowed, included };
      const { before, after } = await setArchiveYears(db, id, change, ADMIN_CLI);
      return { accountId: id, archiveYears: after, previous: before, allowed, included };
    }
    case 'key create': {
      const account = required(values, 'account');
      await accountExists(db, account);
      const mode = required(values, 'mode');
      if (mode !== 'test' && mode !== 'live') throw new CliError('invalid_arguments', '--mode is test or live', 1);
      const scopes = commaList(values.scopes) ?? [...SCOPES];
      const unknown = scopes.filter((s) => !isScope(s));
      if (unknown.length || scopes.length === 0)
        throw new CliError('invalid_arguments', `Unknown scopes: ${unknown.join(', ') || '(none given)'}. Known: ${SCOPES.join(', ')}`, 1);
      return createApiKey(db, account, mode, scopes as Scope[], ADMIN_CLI, config.secretKey);
    }
    case 'key revoke': {
      const target = required(values, 'key');
      if (!KEY_PATTERN.test(target) && !UUID.test(target)) throw new CliError('invalid_arguments', '--key is an API key or a key id', 1);
      const revoked = await revokeApiKey(db, target, {}, ADMIN_CLI);
      if (!revoked) throw new CliError('not_found', 'No such key.');
      return revoked;
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
      const events = commaList(values.events) ?? [];
      try {
        return await createWebhookEndpoint(db, config, { accountId: account, url: required(values, 'url'), env, events }, ADMIN_CLI);
      } catch (error) {
        if (error instanceof WebhookEndpointError) throw new CliError(error.code, error.message);
        throw error;
      }
    }
    case 'webhook deliveries': {
      const account = required(values, 'account');
      await accountExists(db, account);
      return { data: await listDeliveries(db, account, limitOf(values)) };
    }
    case 'webhook ping': {
      const endpointId = required(values, 'id');
      const endpoint = UUID.test(endpointId) ? await db('webhook_endpoints').where({ id: endpointId }).first() : undefined;
      if (!endpoint) throw new CliError('not_found', `No webhook endpoint ${endpointId}.`);
      try {
        return await ping(db, config, endpoint);
      } catch (error) {
        if (error instanceof WebhookEndpointError) throw new CliError(error.code, error.message);
        throw error;
      }
    }
    case 'mailing costs': {
      // What each live letter cost us at the operator, beside what we charged (docs/operators.md).
      const accountId = typeof values.account === 'string' ? values.account : undefined;
      const mailingId = typeof values.id === 'string' ? values.id : undefined;
      if (accountId && !UUID.test(accountId)) throw new CliError('invalid_arguments', '--account is an account id', 1);
      if (mailingId && !UUID.test(mailingId)) throw new CliError('invalid_arguments', '--id is a mailing id', 1);
      return { mailings: await operatorCosts(db, { accountId, shipmentId: mailingId, limit: limitOf(values) }) };
    }
    case 'mailing erase': {
      // A final mailing's personal data, erased as POST /v1/mailings/{id}/erase does (docs/retention.md).
      const id = required(values, 'id');
      if (!UUID.test(id)) throw new CliError('invalid_arguments', '--id is a mailing id', 1);
      try {
        return await eraseMailingPersonalData(db, id, { actor: ADMIN_CLI, via: 'admin' });
      } catch (error) {
        if (error instanceof NotFound) throw new CliError('not_found', error.message);
        if (error instanceof DomainError && error.code) throw new CliError(error.code, error.message);
        throw error;
      }
    }
    case 'documents migrate': {
      // The bytes of own PDFs and proofs still in PostgreSQL, moved to DOCUMENT_STORE=s3 (docs/operators.md).
      const batch = values.batch === undefined ? 100 : Number(values.batch);
      if (!Number.isInteger(batch) || batch < 1 || batch > 10_000) throw new CliError('invalid_arguments', '--batch is a whole number from 1 to 10000', 1);
      if (config.documentStore.kind !== 's3')
        throw new CliError('not_configured', 'DOCUMENT_STORE is postgres: set DOCUMENT_STORE=s3 and its S3_* settings first');
      const accountId = typeof values.account === 'string' ? values.account : undefined;
      if (accountId !== undefined && !UUID.test(accountId)) throw new CliError('invalid_arguments', '--account is an account id', 1);
      return migrateDocumentsToStore(db, {
        batch,
        accountId,
        onBatch: (moved) => process.stderr.write(`moved ${moved.ownPdfs} own PDFs, ${moved.proofs} proofs\n`),
      });
    }
    case 'request list': {
      const status = typeof values.status === 'string' ? requestStatus(values.status) : undefined;
      return {
        data: await listServiceRequests(db, { status, accountId: typeof values.account === 'string' ? values.account : undefined, limit: limitOf(values) }),
      };
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
        batch: { type: 'string' },
        days: { type: 'string' },
        out: { type: 'string' },
        now: { type: 'boolean' },
        type: { type: 'string' },
        clear: { type: 'boolean' },
        simple: { type: 'string' },
        registered: { type: 'string' },
      },
    });
  } catch (error) {
    console.log(JSON.stringify({ error: { code: 'invalid_arguments', message: (error as Error).message } }));
    return 1;
  }
  const command = parsed.positionals.slice(0, 2).join(' ');
  const config = loadConfig();
  useConfiguredDocumentStore(config);
  const { db, close } = await openToolDatabase(config);
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
