import { Client, Connection } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { logger } from './logger.js';

/**
 * Search attributes that let operators find a mailing in the Temporal UI by account, reference,
 * mode, status or sandbox flag.
 */
export const SEARCH_ATTRIBUTES = {
  AccountId: 'Keyword',
  MailingReference: 'Keyword',
  MailingMode: 'Keyword',
  MailingStatus: 'Keyword',
  MailingTest: 'Bool',
} as const;

export interface TemporalHandle {
  connection: Connection;
  client: Client;
}

export async function connectTemporal(address: string, namespace: string): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address, connectTimeout: '5s' });
  return { connection, client: new Client({ connection, namespace }) };
}

/**
 * A client that connects on first use: the API starts and serves what needs no workflow (reads
 * come from Postgres) even while Temporal is down; calls that need it answer 503.
 */
export function lazyTemporal(address: string, namespace: string): TemporalHandle {
  const connection = Connection.lazy({ address, connectTimeout: '5s' });
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

const INDEXED_VALUE_TYPE = { Keyword: 2, Bool: 5 } as const;

/** Registers our search attributes on a server that lacks them (the dev server gets them at start). */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set(Object.keys({ ...existing.customAttributes, ...existing.systemAttributes }));
  const missing = Object.entries(SEARCH_ATTRIBUTES).filter(([name]) => !known.has(name));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, INDEXED_VALUE_TYPE[type]])),
  });
  logger.info({ added: missing.map(([name]) => name) }, 'registered Temporal search attributes');
}
