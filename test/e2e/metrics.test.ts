import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, createAccount, eventually, postSimpleLetter, spawnApiProcess, type ApiProcess } from '../support/api.js';
import { spawnNode } from '../support/processes.js';
import { stack } from '../support/stack.js';
import { freePort } from '../../lib/net/ports.js';
import { mailingWorkflowId } from '../../workflows/contract.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format, read as its scrapers do: one sample per line, comments apart. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample named so with (at least) these labels; 0 when there is none, as Prometheus reads an absent counter. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(found.length, `${name} ${JSON.stringify(labels)}: ${found.length} samples`).to.be.at.most(1);
  return found[0]?.value ?? 0;
}

async function scrape(port: number): Promise<Sample[]> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}

/** Rate limits count per minute: a test that counts them starts early in one. */
async function earlyInAMinute(): Promise<void> {
  const second = new Date().getSeconds();
  if (second > 45) await sleep((61 - second) * 1000);
}

describe('metrics on METRICS_PORT (Prometheus)', function () {
  this.timeout(180_000);

  describe('the API', () => {
    let api: ApiProcess;
    let metricsPort: number;
    before(async () => {
      metricsPort = await freePort();
      api = await spawnApiProcess({ METRICS_PORT: String(metricsPort), RATE_LIMIT_PER_MINUTE: '6' });
    });
    after(() => api.stop());

    it('counts requests by route template and status, their latency, 429s by code and idempotent replays, exactly', async () => {
      const { testKey } = await createAccount();
      await earlyInAMinute();
      const catalogue = () => call('GET', '/v1/catalogue', { baseUrl: api.url, key: testKey });
      const settle = () =>
        call('POST', '/v1/expenses/settle', {
          baseUrl: api.url,
          key: testKey,
          headers: { 'idempotency-key': 'metrics-settle' },
          body: { members: [{ id: 'ana' }, { id: 'ben' }], expenses: [{ amountCents: 1000, paidBy: 'ana' }] },
        });
      // Six calls a minute for this key: three reads, a POST and its replay, then four reads at once (one passes).
      for (let i = 0; i < 3; i++) expect((await catalogue()).status).to.equal(200);
      expect((await settle()).status).to.equal(200);
      const replayed = await settle();
      expect(replayed.status).to.equal(200);
      expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
      const burst = await Promise.all(Array.from({ length: 4 }, catalogue));
      expect(burst.map((r) => r.status).sort()).to.deep.equal([200, 429, 429, 429]);
      expect((await call('GET', '/v1/no-such-thing', { baseUrl: api.url, key: testKey })).status).to.equal(404);
      expect((await call('GET', `/v1/mailings/${randomUUID()}`, { baseUrl: api.url, key: testKey })).status).to.equal(429);

      // A request's sample is counted when its answer has gone: the last one may trail by a tick.
      const samples = await eventually(
        () => scrape(metricsPort),
        (s) => valueOf(s, 'svc_api_requests_total', { route: '/v1/mailings/:id', status: '429' }) === 1,
        5_000,
        50,
      );
      const requests = (labels: Record<string, string>) => valueOf(samples, 'svc_api_requests_total', labels);
      expect(requests({ method: 'GET', route: '/v1/catalogue', status: '200' })).to.equal(4);
      expect(requests({ method: 'GET', route: '/v1/catalogue', status: '429' })).to.equal(3);
      expect(requests({ method: 'POST', route: '/v1/expenses/settle', status: '200' })).to.equal(2);
      // A path no route has is counted under one label, whatever the path: the labels stay few.
      expect(requests({ method: 'GET', route: 'unmatched', status: '404' })).to.equal(1);
      expect(samples.some((s) => s.name === 'svc_api_requests_total' && s.labels.route === '/v1/no-such-thing')).to.equal(false);
      expect(valueOf(samples, 'svc_api_request_duration_seconds_count', { method: 'GET', route: '/v1/catalogue' })).to.equal(7);
      expect(valueOf(samples, 'svc_api_request_duration_seconds_bucket', { method: 'GET', route: '/v1/catalogue', le: '+Inf' })).to.equal(7);
      expect(valueOf(samples, 'svc_api_refusals_total', { code: 'rate_limited' })).to.equal(4);
      expect(valueOf(samples, 'svc_api_idempotent_replays_total')).to.equal(1);
      // Node's own, prefixed like ours.
      expect(valueOf(samples, 'svc_process_resident_memory_bytes')).to.be.above(0);
    });

    it('serves them on their own port only: the API port has no /metrics', async () => {
      expect((await fetch(`${api.url}/metrics`)).status).to.equal(404);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).to.equal(404);
      // The liveness probe of the chart: answered without collecting anything.
      expect((await fetch(`http://127.0.0.1:${metricsPort}/live`)).status).to.equal(200);
    });
  });

  describe('a worker', () => {
    const taskQueue = `metrics-${randomUUID()}`;
    // The simulated operator refuses each letter's first filing attempt: one retry per mailing.
    const env = { TEMPORAL_TASK_QUEUE: taskQueue, OPERATOR_STEP_DELAY: '200ms', OPERATOR_FAIL_FIRST_FILINGS: '1' };
    let api: ApiProcess;
    let worker: ChildProcess;
    let metricsPort: number;
    before(async () => {
      metricsPort = await freePort();
      api = await spawnApiProcess(env);
      worker = spawnNode('worker', { ...env, METRICS_PORT: String(metricsPort) });
    });
    after(async () => {
      if (worker.exitCode === null && worker.signalCode === null) {
        worker.kill('SIGKILL');
        await once(worker, 'exit');
      }
      await api.stop();
    });

    it("has the Temporal SDK's metrics, filing retries and operator errors counted, and mailings and deliveries as PostgreSQL has them", async () => {
      const account = await createAccount({ balanceCents: 10_000 });
      const id = await postSimpleLetter(api.url, account.liveKey);
      await eventually(
        () => call('GET', `/v1/mailings/${id}`, { baseUrl: api.url, key: account.liveKey }),
        (r) => r.body.status === 'posted',
        90_000,
        500,
      );
      await stack().temporal.client.workflow.getHandle(mailingWorkflowId(id)).result();

      const samples = await eventually(
        () => scrape(metricsPort),
        (s) => s.some((x) => x.name.startsWith('temporal_')),
        30_000,
        500,
      );
      expect(valueOf(samples, 'svc_filing_retries_total', { reason: 'unavailable' })).to.equal(1);
      expect(valueOf(samples, 'svc_operator_errors_total', { operator: 'simulator', call: 'file' })).to.equal(1);
      expect(samples.map((s) => s.name)).to.include.members(['temporal_workflow_completed_total', 'temporal_activity_execution_latency_count']);

      const { db } = stack();
      const byStatus: { status: string; test: boolean; n: string }[] = await db('shipments')
        .select('status', 'test')
        .count({ n: '*' })
        .groupBy('status', 'test');
      for (const row of byStatus) expect(valueOf(samples, 'svc_mailings', { status: row.status, mode: row.test ? 'test' : 'live' })).to.equal(Number(row.n));
      const abandoned = await db('webhook_deliveries').where({ status: 'abandoned' }).count({ n: '*' });
      expect(valueOf(samples, 'svc_webhook_deliveries_undelivered', { state: 'abandoned' })).to.equal(Number(abandoned[0]!.n));
    });
  });
  describe('a worker without metrics (the Cloud overlay, or metrics.enabled=false)', () => {
    const taskQueue = `probes-${randomUUID()}`;
    let worker: ChildProcess;
    let healthPort: number;
    let output = '';
    before(async () => {
      healthPort = await freePort();
      // INFO: the SDK says when its workers start, through our logger.
      worker = spawnNode('worker', { TEMPORAL_TASK_QUEUE: taskQueue, HEALTH_PORT: String(healthPort), LOG_LEVEL: 'info', TEMPORAL_LOG_LEVEL: 'INFO' }, 'pipe');
      worker.stdout!.on('data', (chunk) => (output += chunk));
      worker.stderr!.on('data', (chunk) => (output += chunk));
    });
    after(async () => {
      if (worker.exitCode === null && worker.signalCode === null) {
        worker.kill('SIGKILL');
        await once(worker, 'exit');
      }
    });

    it('answers its liveness probe on HEALTH_PORT, and nothing else there', async () => {
      const live = await eventually(
        () =>
          fetch(`http://127.0.0.1:${healthPort}/live`).then(
            (res) => res.status,
            () => 0,
          ),
        (status) => status === 200,
        30_000,
        100,
      );
      expect(live).to.equal(200);
      expect((await fetch(`http://127.0.0.1:${healthPort}/metrics`)).status).to.equal(404);
    });

    it("writes the Temporal SDK's lines as JSON, as its own, with the process's role", async () => {
      await eventually(
        async () => output,
        (text) => text.includes('Worker state changed'),
        30_000,
        100,
      );
      const lines = output.split('\n').filter((line) => line.trim() !== '');
      // Every line, the SDK's included, is one JSON object: nothing in the SDK's own text format.
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const sdk = records.filter((record) => record.component === 'temporal-sdk');
      expect(sdk.map((record) => record.msg)).to.include('Worker state changed');
      for (const record of records)
        expect(record).to.include({ service: 'svc-postal-api', role: 'worker', workerRoles: 'mailings,deliveries,printing,tracking,partners' });
    });
  });
});
