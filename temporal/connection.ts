/**
 * Connecting to Temporal and registering our search attributes: what the API, the worker, the
 * admin CLI and the local tools share. The calls the domain makes are in ./workflow-runner.ts.
 */
import { Client, Connection } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { logger } from '../lib/logger.js';
import type { TemporalAccess } from '../lib/config.js';
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

/** TLS and API key options of a connection (client or worker) from TEMPORAL_TLS_* and TEMPORAL_API_KEY; none for a local server. */
export function accessOptions(access: TemporalAccess | undefined): { tls?: NonNullable<TemporalAccess['tls']>; apiKey?: string } {
  return { ...(access?.tls ? { tls: access.tls } : {}), ...(access?.apiKey ? { apiKey: access.apiKey } : {}) };
}

export async function connectTemporal(address: string, namespace: string, access?: TemporalAccess): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address, connectTimeout: '5s', channelArgs: TEMPORAL_CHANNEL_ARGS, ...accessOptions(access) });
  return { connection, client: new Client({ connection, namespace }) };
}

/**
 * A client that connects on first use: the API starts and serves what needs no workflow (reads
 * come from Postgres) even while Temporal is down; calls that need it answer 503.
 */
export function lazyTemporal(address: string, namespace: string, access?: TemporalAccess): TemporalHandle {
  const connection = Connection.lazy({ address, connectTimeout: '5s', channelArgs: TEMPORAL_CHANNEL_ARGS, ...accessOptions(access) });
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
  logger.info({ added: missing.map((key) => key.name) }, 'registered Temporal search attributes');
}
