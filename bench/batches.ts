import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { distRoot } from '../lib/paths.js';
import { freePort } from '../lib/net/ports.js';
import { freeLetter, recipient, sender } from '../test/support/fixtures.js';
import type { BenchDeps } from './deps.js';
import { GeocoderStandIn } from './geocoder-stand-in.js';
import { firstCheckedMailing, postMailing, started } from './intake.js';
import { freshNamespace } from './namespaces.js';
import type { Report } from './report.js';
import { ScenarioFailed, startProcess, stopProcess } from './support.js';

/** Mailings on each side of the comparison: one batch of this many rows, or as many single POSTs. */
const MAILINGS = 1_000;
/** The single POSTs' connections, as the intake's (bench/intake.ts). */
const CONNECTIONS = 20;
/** The most rows of a batch (MAX_BATCH_ROWS), each to an address no cache knows. */
const LARGEST_BATCH = 5_000;
/** Past this wait, mailings without a started workflow fail the scenario. */
const STARTS_DEADLINE_MS = 300_000;

type Side = { url: string; client: Client; taskQueue: string; stop(): Promise<void> };

/** An API and a worker (every role) on a fresh namespace and queue of their own. */
async function startSide(deps: BenchDeps, env: Record<string, string>, label: string): Promise<Side> {
  const { namespace, client } = await freshNamespace(deps, label);
  const port = await freePort();
  const taskQueue = `bench-${label}-${randomUUID()}`;
  const sideEnv = { ...env, PORT: String(port), TEMPORAL_NAMESPACE: namespace, TEMPORAL_TASK_QUEUE: taskQueue };
  const ready = `http://127.0.0.1:${port}/v1/openapi.json`;
  const api = await startProcess(join(distRoot, 'server', 'main.js'), sideEnv, ready);
  const worker = await startProcess(join(distRoot, 'worker', 'main.js'), sideEnv, ready);
  return {
    url: `http://127.0.0.1:${port}`,
    client,
    taskQueue,
    async stop() {
      await stopProcess(worker);
      await stopProcess(api);
    },
  };
}

/** Waits until one mailing's workflow exists; the time it did. */
const workflowStarted = (client: Client, mailingId: string): Promise<number> => started(client, mailingId, STARTS_DEADLINE_MS);

/** Waits until Temporal's visibility shows `expected` mailing workflows on the side's queue. */
async function mailingsVisible(side: Side, expected: number, what: string): Promise<void> {
  const deadline = performance.now() + STARTS_DEADLINE_MS;
  for (;;) {
    const { count } = await side.client.workflow.count(`WorkflowType = "mailing" AND TaskQueue = "${side.taskQueue}"`);
    if (count >= expected) return;
    if (performance.now() > deadline) throw new ScenarioFailed(`${what}: ${expected - count} of ${expected} mailings had no workflow`);
    await sleep(1000);
  }
}

const rowsOf = (count: number, address: (i: number) => typeof recipient = () => recipient) =>
  Array.from({ length: count }, (_, i) => ({ recipient: address(i), reference: `row-${i}` }));

/** POST /v1/mailing-batches, its answer checked: created (201), every row a mailing. */
async function postBatch(side: Side, headers: Record<string, string>, rows: unknown[]): Promise<{ id: string; ms: number }> {
  const begun = performance.now();
  const res = await fetch(`${side.url}/v1/mailing-batches`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: JSON.stringify({ mode: 'simple', letter: freeLetter, sender, rows }),
  });
  const text = await res.text();
  const ms = performance.now() - begun;
  if (res.status !== 201) throw new ScenarioFailed(`POST /v1/mailing-batches answered ${res.status}: ${text.slice(0, 300)}`);
  const batch = JSON.parse(text) as { id: string; mailingCount?: number };
  return { id: batch.id, ms };
}

/**
 * The batch's last mailing to start: the batch workflow starts its mailings in the order of their
 * ids (workflows/batch.ts), so the greatest id is started last.
 */
async function lastMailingOf(deps: BenchDeps, batchId: string, expected: number): Promise<string> {
  const rows = (await deps.db('shipments').where({ batch_id: batchId }).select('id').orderBy('id', 'desc')) as { id: string }[];
  if (rows.length !== expected) throw new ScenarioFailed(`the batch of ${expected} rows recorded ${rows.length} mailings`);
  return rows[0]!.id;
}

/**
 * Batches against single mailings (issue 57): MAILINGS mailings as one batch and as MAILINGS single
 * POSTs (20 connections), each side from its first request to every mailing's workflow started, on
 * an API and a worker of its own in a fresh namespace; then the largest batch of new addresses,
 * each checked against the geocoder at its rate cap, against the idempotency lease its POST must fit in.
 */
export async function benchBatches(deps: BenchDeps, env: Record<string, string>, report: Report): Promise<void> {
  const part = 'batches';
  const headers = { authorization: `Bearer ${deps.testKey}`, 'content-type': 'application/json' };
  const mailing = JSON.stringify({ mode: 'simple', letter: freeLetter, sender, recipient });

  // Single POSTs, counted when the last answered mailing's workflow has started (the API starts
  // them in the order it answered them), then every one seen in Temporal's visibility.
  const singles = await startSide(deps, env, 'singles');
  let singleRate: number;
  try {
    await firstCheckedMailing(`${singles.url}/v1/mailings`, headers, () => mailing);
    const warm = await Promise.all(Array.from({ length: CONNECTIONS }, () => postMailing(`${singles.url}/v1/mailings`, headers, mailing)));
    await workflowStarted(singles.client, warm.at(-1)!);
    let sent = 0;
    let last = '';
    const begun = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (sent < MAILINGS) {
          sent++;
          last = await postMailing(`${singles.url}/v1/mailings`, headers, mailing);
        }
      }),
    );
    const done = await workflowStarted(singles.client, last);
    singleRate = MAILINGS / ((done - begun) / 1000);
    await mailingsVisible(singles, 1 + CONNECTIONS + MAILINGS, 'single POSTs');
  } finally {
    await singles.stop();
  }

  // One batch of as many rows, counted when its last mailing's workflow has started.
  const batches = await startSide(deps, env, 'batch');
  let batchRate: number;
  let batchAnswerMs: number;
  try {
    await firstCheckedMailing(`${batches.url}/v1/mailings`, headers, () => mailing);
    const warm = await postBatch(batches, headers, rowsOf(CONNECTIONS));
    await workflowStarted(batches.client, await lastMailingOf(deps, warm.id, CONNECTIONS));
    const begun = performance.now();
    const batch = await postBatch(batches, headers, rowsOf(MAILINGS));
    batchAnswerMs = batch.ms;
    const done = await workflowStarted(batches.client, await lastMailingOf(deps, batch.id, MAILINGS));
    batchRate = MAILINGS / ((done - begun) / 1000);
    await mailingsVisible(batches, 1 + CONNECTIONS + MAILINGS, 'a batch');
  } finally {
    await batches.stop();
  }
  console.log(`batches: ${MAILINGS} mailings as single POSTs ${singleRate.toFixed(0)}/s, as one batch ${batchRate.toFixed(0)}/s`);
  report.add({
    part,
    name: `${MAILINGS} single POST /v1/mailings (${CONNECTIONS} connections), until every workflow has started`,
    value: singleRate,
    unit: 'mailings/s',
  });
  report.add({ part, name: `one batch of ${MAILINGS} rows, from its POST until every mailing's workflow has started`, value: batchRate, unit: 'mailings/s' });
  report.add({ part, name: `one batch of ${MAILINGS} rows: its POST answered`, value: Math.round(batchAnswerMs), unit: 'ms' });
  report.add({
    part,
    name: `a batch of ${MAILINGS} ÷ as many single POSTs (mailings whose workflow has started per second)`,
    value: batchRate / singleRate,
    unit: 'ratio',
    target: { atLeast: 3 },
  });

  // The largest batch, each row to an address no cache knows: its checks wait on the geocoder's
  // rate cap (GEOCODING_RATE_PER_SECOND, as deployed), inside the Idempotency-Key's claim.
  const geocoder = await new GeocoderStandIn().start();
  const largest = await startSide(deps, { ...env, GEOCODING_BASE_URL: geocoder.baseUrl }, 'largest');
  try {
    const lines = (i: number) => ({ ...recipient, lines: [`${700_000 + i} rue du Banc`] });
    // Until a new address comes back checked: the worker answering the lookups may still be
    // bundling its workflows, and lookups that miss their deadline then would open the breaker.
    let warm = 0;
    await firstCheckedMailing(`${largest.url}/v1/mailings`, headers, () =>
      JSON.stringify({ mode: 'simple', letter: freeLetter, sender, recipient: lines(LARGEST_BATCH + warm++) }),
    );
    const before = geocoder.requests;
    const batch = await postBatch(largest, headers, rowsOf(LARGEST_BATCH, lines));
    if (geocoder.requests - before < LARGEST_BATCH)
      throw new ScenarioFailed(`only ${geocoder.requests - before} of ${LARGEST_BATCH} new addresses reached the geocoder`);
    await lastMailingOf(deps, batch.id, LARGEST_BATCH);
    // Each row checked, not posted unchecked past the check's deadline: otherwise the time is the deadline's.
    const unchecked = await deps.db('shipments').where({ batch_id: batch.id }).whereRaw(`warnings::text LIKE '%address_check_unavailable%'`).count({ n: '*' });
    if (Number(unchecked[0]!.n) > 0)
      throw new ScenarioFailed(`${unchecked[0]!.n} of the ${LARGEST_BATCH} rows were posted unchecked (the address check missed its deadline)`);
    const leaseMs = deps.config.idempotencyLeaseMs;
    console.log(`batches: ${LARGEST_BATCH} new addresses answered in ${(batch.ms / 1000).toFixed(1)} s (lease ${leaseMs / 1000} s)`);
    report.add({
      part,
      name: `one batch of ${LARGEST_BATCH} rows, each to an address no cache knows (geocoder at its rate cap): its POST answered`,
      value: Math.round(batch.ms / 100) / 10,
      unit: 's',
    });
    report.add({
      part,
      name: `that POST's time ÷ the Idempotency-Key's lease (IDEMPOTENCY_LEASE, ${leaseMs / 60_000} min)`,
      value: batch.ms / leaseMs,
      unit: 'ratio',
      target: { below: 1 },
    });
  } finally {
    await largest.stop();
    await geocoder.stop();
  }
}
