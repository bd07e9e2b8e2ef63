import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { ensureSearchAttributes } from '../temporal/connection.js';
import type { BenchDeps } from './deps.js';

/** How long the dev server may take to serve a namespace it has just registered (its cache refreshes). */
const NAMESPACE_READY_MS = 60_000;

/**
 * A namespace of its own for one round of the bench, with our search attributes, and a client on it.
 * Temporal's dev server slows as a namespace fills up (its visibility and history tables grow), so a
 * round run in the namespace the earlier rounds filled measured the namespace's size as much as our
 * code: each round's two sides share a fresh one, and each round starts from the same empty state.
 */
export async function freshNamespace(deps: BenchDeps, label: string): Promise<{ namespace: string; client: Client }> {
  const namespace = `bench-${label}-${randomUUID().slice(0, 8)}`;
  // The bench's client is made on a Connection (run.ts: connectTemporal).
  const connection = deps.client.connection as Connection;
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1d') });
  const deadline = Date.now() + NAMESPACE_READY_MS;
  for (;;) {
    try {
      await connection.workflowService.describeNamespace({ namespace });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
  // Waits until a query naming them is accepted (temporal/connection.ts).
  await ensureSearchAttributes(connection, namespace);
  return { namespace, client: new Client({ connection, namespace }) };
}
