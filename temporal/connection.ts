/**
 * Connecting to Temporal and registering our search attributes: what the API, the worker, the
 * admin CLI and the local tools share. The calls the domain makes are in ./domain-deps.ts (one
 * adapter per port of the domain).
 */
import { Client, Connection, type TLSConfig } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../lib/config.js';
import { logger } from '../lib/logger.js';
import { SEARCH_ATTRIBUTES } from '../workflows/contract.js';

export interface TemporalHandle {
  connection: Connection;
  client: Client;
}

/**
 * gRPC's reconnection backoff grows to 120 s by default: after a long outage of the Temporal
 * server, a client would keep failing for tens of seconds once the server is back (39 s were
 * measured after a 77 s outage). Capped at one second, a client is back within a second; a failed
 * attempt to a local server costs next to nothing.
 */
export const TEMPORAL_CHANNEL_ARGS = {
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 1000,
};

/** How a connection proves itself and checks the server: TLS and the API key (lib/config.ts). */
export type TemporalSecurity = Pick<Config, 'temporalTls' | 'temporalApiKey'>;

/** Plain gRPC, as the embedded dev server speaks. */
export const PLAIN: TemporalSecurity = { temporalTls: undefined, temporalApiKey: undefined };

/** What both Connection (client) and NativeConnection (worker) take, in the shape both accept. */
export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig;
  apiKey?: string;
  metadata?: Record<string, string>;
}

/**
 * The one place the options of a connection to Temporal are made, for the client (API, admin CLI,
 * the worker's reconciler) and the worker alike: TLS with the server's CA, the client certificate
 * (mTLS) and the name to check, and Temporal Cloud's API key. With an API key, every call also
 * carries the `temporal-namespace` header, which Temporal Cloud's API-key endpoints route by (the
 * client adds it per call where the request names the namespace, the worker's connection does not).
 */
export function temporalConnectionOptions(address: string, namespace: string, security: TemporalSecurity = PLAIN): TemporalConnectionOptions {
  const options: TemporalConnectionOptions = { address };
  const tls = security.temporalTls;
  if (tls) {
    options.tls = {
      ...(tls.serverCa && { serverRootCACertificate: tls.serverCa }),
      ...(tls.client && { clientCertPair: { crt: tls.client.cert, key: tls.client.key } }),
      ...(tls.serverName && { serverNameOverride: tls.serverName }),
    };
  }
  if (security.temporalApiKey) {
    options.tls ??= {};
    options.apiKey = security.temporalApiKey;
    options.metadata = { 'temporal-namespace': namespace };
  }
  return options;
}

export async function connectTemporal(address: string, namespace: string, security: TemporalSecurity = PLAIN): Promise<TemporalHandle> {
  const connection = await Connection.connect({
    ...temporalConnectionOptions(address, namespace, security),
    connectTimeout: '5s',
    channelArgs: TEMPORAL_CHANNEL_ARGS,
  });
  return { connection, client: new Client({ connection, namespace }) };
}

/**
 * A client that connects on first use: the API starts and serves what needs no workflow (reads
 * come from Postgres) even while Temporal is down; calls that need it answer 503.
 */
export function lazyTemporal(address: string, namespace: string, security: TemporalSecurity = PLAIN): TemporalHandle {
  const connection = Connection.lazy({ ...temporalConnectionOptions(address, namespace, security), connectTimeout: '5s', channelArgs: TEMPORAL_CHANNEL_ARGS });
  return { connection, client: new Client({ connection, namespace }) };
}

/** Waits until a freshly started server answers. */
export async function waitForTemporal(address: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: '2s' });
      await connection.workflowService.getSystemInfo({});
      await connection.close();
      return;
    } catch (error) {
      lastError = error;
      await sleep(250);
    }
  }
  throw new Error(`Temporal at ${address} did not answer within ${timeoutMs} ms: ${String(lastError)}`);
}

/** Each search attribute type as the CLI names it and as the operator service numbers it. */
const ATTRIBUTE_TYPES: Record<string, { cli: string; indexed: number }> = { KEYWORD: { cli: 'Keyword', indexed: 2 }, BOOL: { cli: 'Bool', indexed: 5 } };

/** `--search-attribute Name=Type` flags for `temporal server start-dev`. */
export function devServerSearchAttributeFlags(): string[] {
  return SEARCH_ATTRIBUTES.flatMap((key) => ['--search-attribute', `${key.name}=${ATTRIBUTE_TYPES[key.type]!.cli}`]);
}

/** Our search attributes, by name, with their types as the operator service numbers them. */
export function searchAttributeTypes(keys = SEARCH_ATTRIBUTES): Record<string, number> {
  return Object.fromEntries(keys.map((key) => [key.name, ATTRIBUTE_TYPES[key.type]!.indexed]));
}

/** Registers our search attributes on a server that lacks them (the dev server gets them at start). */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set(Object.keys({ ...existing.customAttributes, ...existing.systemAttributes }));
  const missing = SEARCH_ATTRIBUTES.filter((key) => !known.has(key.name));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: searchAttributeTypes(missing),
  });
  await untilUsable(connection, namespace, missing);
  logger.info({ added: missing.map((key) => key.name) }, 'registered Temporal search attributes');
}

/** How long a cluster's frontends may take to learn new search attributes (their namespace cache refreshes every 10 s by default). */
const SEARCH_ATTRIBUTES_USABLE_MS = 60_000;

/**
 * A self-hosted cluster lists new search attributes at once, but its frontends refuse them (a
 * workflow start carrying them, a query naming them: "no mapping defined", "not a valid search
 * attribute") until their namespace cache refreshes: 2 to 10 s. The first mailings after a first
 * deployment would fail to start. Waits until a query naming them all is accepted.
 */
async function untilUsable(connection: Connection, namespace: string, added: typeof SEARCH_ATTRIBUTES): Promise<void> {
  const query = added.map((key) => (key.type === 'BOOL' ? `${key.name} = true` : `${key.name} = ''`)).join(' OR ');
  const deadline = Date.now() + SEARCH_ATTRIBUTES_USABLE_MS;
  for (;;) {
    try {
      await connection.workflowService.countWorkflowExecutions({ namespace, query });
      return;
    } catch (error) {
      // INVALID_ARGUMENT: not known to this frontend yet.
      if ((error as { code?: number }).code !== 3 || Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
}

/** A gRPC refusal that says the call is not allowed here (Temporal Cloud's operator service, an authorizer). */
function refused(error: unknown): boolean {
  // gRPC status codes: PERMISSION_DENIED, UNIMPLEMENTED, UNAUTHENTICATED.
  return [7, 12, 16].includes((error as { code?: number }).code ?? -1);
}

/** The commands that create `missing` on a self-hosted server and on Temporal Cloud. */
export function searchAttributeCommands(namespace: string, missing = SEARCH_ATTRIBUTES): { cli: string[]; cloud: string } {
  // The CLI takes one --type per command (several --name); tcld takes Name=Type pairs.
  const byType = new Map<string, string[]>();
  for (const key of missing) byType.set(ATTRIBUTE_TYPES[key.type]!.cli, [...(byType.get(ATTRIBUTE_TYPES[key.type]!.cli) ?? []), key.name]);
  const cli = [...byType].map(
    ([type, names]) => `temporal operator search-attribute create --namespace ${namespace} --type ${type} ${names.map((n) => `--name ${n}`).join(' ')}`,
  );
  const cloud = `tcld namespace search-attributes add --namespace ${namespace} ${missing.map((key) => `--search-attribute "${key.name}=${ATTRIBUTE_TYPES[key.type]!.cli}"`).join(' ')}`;
  return { cli, cloud };
}

/**
 * Checks, without changing anything, that the namespace has our search attributes with their types:
 * through the operator service's list, else (where it is refused, e.g. Temporal Cloud with an API
 * key of a role without it) the workflow service's `getSearchAttributes`. Missing or mistyped ones
 * fail with the commands that create them; when neither call is allowed, a warning says so.
 */
export async function checkSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  let types: Record<string, number>;
  try {
    const listed = await connection.operatorService.listSearchAttributes({ namespace });
    types = { ...listed.systemAttributes, ...listed.customAttributes } as Record<string, number>;
  } catch (error) {
    if (!refused(error)) throw error;
    try {
      types = (await connection.workflowService.getSearchAttributes({})).keys as Record<string, number>;
    } catch (again) {
      if (!refused(again)) throw again;
      logger.warn(
        { namespace, commands: searchAttributeCommands(namespace) },
        'cannot list the Temporal search attributes (refused): not checked; mailings fail to start without them',
      );
      return;
    }
  }
  const wanted = searchAttributeTypes();
  const wrong = SEARCH_ATTRIBUTES.filter((key) => types[key.name] !== undefined && types[key.name] !== wanted[key.name]);
  if (wrong.length)
    throw new Error(
      `Temporal namespace "${namespace}": search attribute${wrong.length > 1 ? 's' : ''} ${wrong.map((k) => `${k.name} (must be ${ATTRIBUTE_TYPES[k.type]!.cli})`).join(', ')} exist${wrong.length > 1 ? '' : 's'} with another type; remove and create again, or use another namespace`,
    );
  const missing = SEARCH_ATTRIBUTES.filter((key) => types[key.name] === undefined);
  if (missing.length === 0) return;
  const { cli, cloud } = searchAttributeCommands(namespace, missing);
  throw new Error(
    [
      `Temporal namespace "${namespace}" lacks the search attributes ${missing.map((k) => k.name).join(', ')}, and the worker does not register them (TEMPORAL_REGISTER_SEARCH_ATTRIBUTES is not 1). Create them once:`,
      ...cli.map((line) => `  ${line}`),
      `or, on Temporal Cloud:`,
      `  ${cloud}`,
      `or start one worker with TEMPORAL_REGISTER_SEARCH_ATTRIBUTES=1 where the server allows it (self-hosted).`,
    ].join('\n'),
  );
}

/** At a worker's start: registers the search attributes where told to (TEMPORAL_REGISTER_SEARCH_ATTRIBUTES), else checks them. */
export async function prepareSearchAttributes(
  connection: Connection,
  config: Pick<Config, 'temporalNamespace' | 'temporalRegisterSearchAttributes'>,
): Promise<void> {
  if (config.temporalRegisterSearchAttributes) await ensureSearchAttributes(connection, config.temporalNamespace);
  else await checkSearchAttributes(connection, config.temporalNamespace);
}
