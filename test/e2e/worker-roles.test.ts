import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PDFDocument } from 'pdf-lib';
import { call, createAccount, eventually, postSimpleLetter, spawnApiProcess, type ApiProcess } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { spawnNode } from '../support/processes.js';
import { stack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { projectRoot } from '../../lib/paths.js';
import { msToTs } from '@temporalio/common/lib/time.js';
import { deliveriesQueue, mailingWorkflowId, printingQueue, trackingQueue } from '../../workflows/contract.js';

/** A worker process of its own, its output kept. */
interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

function startWorker(env: Record<string, string>): WorkerProcess {
  let output = '';
  const child = spawnNode('worker', { ...env, LOG_LEVEL: 'info' }, 'pipe');
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, at: Date.now() }));
  return { child, output: () => output, exited };
}

async function stopWorker(worker: WorkerProcess | undefined): Promise<void> {
  if (!worker || worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  worker.child.kill('SIGKILL');
  await worker.exited;
}

/** Waits until the worker's log (flushed in blocks) has a line with `text`. */
async function logLine(worker: WorkerProcess, text: string, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !worker.output().includes(text); await sleep(100))
    if (Date.now() > deadline) throw new Error(`no "${text}" in the worker's log:\n${worker.output()}`);
}

describe('worker roles (WORKER_ROLES)', function () {
  this.timeout(180_000);
  const taskQueue = `roles-${randomUUID()}`;
  const env = { TEMPORAL_TASK_QUEUE: taskQueue, OPERATOR_STEP_DELAY: '300ms', OPERATOR_FAIL_FIRST_FILINGS: '0', LOG_LEVEL: 'warn' };
  let api: ApiProcess;
  let receiver: WebhookReceiver;
  let workflowsEtc: WorkerProcess | undefined;
  let printer: WorkerProcess | undefined;

  before(async () => {
    api = await spawnApiProcess(env);
    receiver = await new WebhookReceiver().start();
  });
  after(async () => {
    await stopWorker(workflowsEtc);
    await stopWorker(printer);
    await api.stop();
    await receiver.stop();
  });

  it('split over two processes, a live mailing reaches its end with its proof and webhooks; only the printing one has a browser', async () => {
    workflowsEtc = startWorker({ ...env, LOG_LEVEL: 'info', WORKER_ROLES: 'mailings,deliveries,tracking,partners' });
    printer = startWorker({ ...env, LOG_LEVEL: 'info', WORKER_ROLES: 'printing' });
    await logLine(workflowsEtc, 'worker running');
    await logLine(printer, 'worker running');
    expect(workflowsEtc.output()).to.include('no printing role: no PDF browser');

    const account = await createAccount({ balanceCents: 10_000 });
    await createWebhookEndpoint(stack().db, stack().config, { accountId: account.id, url: receiver.url, env: 'live', events: [] });
    const id = await postSimpleLetter(api.url, account.liveKey);
    const done = await eventually(
      () => call('GET', `/v1/mailings/${id}`, { baseUrl: api.url, key: account.liveKey }),
      (r) => r.body.status === 'posted' && r.body.proofs.length === 1,
      60_000,
      500,
    );
    expect(done.body.events.map((e: { status: string }) => e.status)).to.deep.equal(['paid', 'printed', 'posted']);
    await stack().temporal.client.workflow.getHandle(mailingWorkflowId(id)).result();

    // The proof, printed by the printing process, is a PDF.
    const link = await call('GET', `/v1/mailings/${id}/proofs/filing`, { baseUrl: api.url, key: account.liveKey });
    expect(link.status, JSON.stringify(link.body)).to.equal(200);
    const pdf = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
    // A simple letter's proof is ours (the operator has none, as with Maileva): printed by Chromium.
    expect((await PDFDocument.load(pdf, { updateMetadata: false })).getProducer()).to.match(/^Skia\/PDF/);
    // Every event reached the receiver, from the deliveries queue.
    const types = (await receiver.until((r) => r.filter((w) => w.body.data?.mailing?.id === id).length >= 4))
      .filter((w) => w.body.data?.mailing?.id === id)
      .map((w) => w.body.type);
    expect(types).to.include.members(['mailing.created', 'mailing.printed', 'mailing.posted', 'mailing.proof_available']);

    // Each kind of work went to its role's queue.
    const { events } = await stack().temporal.client.workflow.getHandle(mailingWorkflowId(id)).fetchHistory();
    const queueOf = new Map<string, Set<string>>();
    for (const e of events ?? []) {
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (scheduled) queueOf.set(scheduled.activityType!.name!, new Set([...(queueOf.get(scheduled.activityType!.name!) ?? []), scheduled.taskQueue!.name!]));
    }
    expect([...queueOf.get('fileWithOperator')!]).to.deep.equal([printingQueue(taskQueue)]);
    expect([...queueOf.get('publishProof')!]).to.deep.equal([printingQueue(taskQueue)]);
    expect([...queueOf.get('deliverWebhooks')!]).to.deep.equal([deliveriesQueue(taskQueue)]);
    expect([...queueOf.get('checkOperatorStatus')!]).to.deep.equal([trackingQueue(taskQueue)]);

    await logLine(printer, 'PDF browser started');
    expect(workflowsEtc.output()).not.to.include('PDF browser started');
  });
});

describe('worker start: search attributes it does not register (TEMPORAL_REGISTER_SEARCH_ATTRIBUTES)', function () {
  this.timeout(120_000);
  let worker: WorkerProcess | undefined;
  after(() => stopWorker(worker));

  it('on a namespace without them, refuses to start with the commands that create them; with 1, registers them', async () => {
    const namespace = `bare-${randomUUID().slice(0, 8)}`;
    const { client } = stack().temporal;
    await client.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1d') });
    // A new namespace is known to the frontend once its cache is refreshed.
    await eventually(
      () =>
        client.workflowService.describeNamespace({ namespace }).then(
          () => true,
          () => false,
        ),
      (known) => known,
      30_000,
      500,
    );
    const env = { TEMPORAL_NAMESPACE: namespace, TEMPORAL_TASK_QUEUE: `bare-${randomUUID()}`, WORKER_ROLES: 'mailings' };
    worker = startWorker(env);
    const { code } = await worker.exited;
    expect(code).to.equal(1);
    await sleep(200);
    expect(worker.output()).to.include(`lacks the search attributes AccountId`);
    expect(worker.output()).to.include(`temporal operator search-attribute create --namespace ${namespace} --type Keyword --name AccountId`);
    expect(worker.output()).to.include(`tcld namespace search-attributes add --namespace ${namespace} --search-attribute \\"AccountId=Keyword\\"`);

    worker = startWorker({ ...env, TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: '1' });
    await logLine(worker, 'worker running', 60_000);
    const listed = await stack().temporal.connection.operatorService.listSearchAttributes({ namespace });
    expect(Object.keys(listed.customAttributes ?? {})).to.include.members(['AccountId', 'MailingStatus', 'MailingTest', 'DeliveryStatus']);
  });
});

/** An HTTPS webhook receiver that answers after `delayMs`, and says when each request came and was answered. */
async function slowReceiver(delayMs: number): Promise<{ server: Server; url: string; arrived: number[]; answered: number[] }> {
  const tls = join(projectRoot, 'test', 'fixtures', 'tls');
  const state = { arrived: [] as number[], answered: [] as number[] };
  const server = createServer({ key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(join(tls, 'cert.pem')) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      state.arrived.push(Date.now());
      setTimeout(() => {
        res.on('error', () => undefined);
        res.writeHead(200).end('ok', () => state.answered.push(Date.now()));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, ...state };
}

describe('worker shutdown on SIGTERM (SHUTDOWN_GRACE)', function () {
  this.timeout(120_000);
  let api: ApiProcess | undefined;
  const workers: WorkerProcess[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    for (const w of workers.splice(0)) await stopWorker(w);
    await api?.stop();
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      s.close();
    }
  });

  /** A test mailing on its own queue whose mailing.created delivery is held by the receiver; the deliveries worker apart. */
  async function heldDelivery(delayMs: number, grace: string) {
    const taskQueue = `drain-${randomUUID()}`;
    const env = { TEMPORAL_TASK_QUEUE: taskQueue, LOG_LEVEL: 'warn' };
    api = await spawnApiProcess(env);
    const receiver = await slowReceiver(delayMs);
    servers.push(receiver.server);
    const rest = startWorker({ ...env, WORKER_ROLES: 'mailings,printing,tracking,partners' });
    const deliveries = startWorker({ ...env, WORKER_ROLES: 'deliveries', SHUTDOWN_GRACE: grace });
    workers.push(rest, deliveries);
    await logLine(deliveries, 'worker running');
    const account = await createAccount({ balanceCents: 10_000 });
    await createWebhookEndpoint(stack().db, stack().config, { accountId: account.id, url: receiver.url, env: 'test', events: ['mailing.created'] });
    const created = await call('POST', '/v1/mailings', {
      baseUrl: api.url,
      key: account.testKey,
      body: { mode: 'simple', letter: freeLetter, sender, recipient },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    for (const deadline = Date.now() + 30_000; receiver.arrived.length === 0; await sleep(50))
      if (Date.now() > deadline) throw new Error('the delivery never reached the receiver');
    const signalledAt = Date.now();
    deliveries.child.kill('SIGTERM');
    return { receiver, deliveries, account, signalledAt, id: created.body.id as string };
  }

  it('lets a running activity finish within the grace period: the attempt is recorded once, then the process exits 0', async () => {
    const { receiver, deliveries, account } = await heldDelivery(3_000, '20s');
    const exit = await deliveries.exited;
    expect(exit.code, deliveries.output()).to.equal(0);
    expect(receiver.answered).to.have.length(1);
    expect(exit.at, 'exited after the answer').to.be.greaterThan(receiver.answered[0]!);
    expect(deliveries.output()).to.include('worker draining');
    const row = await stack().db('webhook_deliveries').where({ account_id: account.id }).first();
    expect(row).to.include({ status: 'delivered', attempts: 1, last_http_status: 200 });
  });

  it('gives up on an activity that outlives the grace period: the process exits soon after it, without the answer', async () => {
    const { receiver, deliveries, signalledAt } = await heldDelivery(9_000, '1s');
    const exit = await deliveries.exited;
    expect(exit.at - signalledAt, deliveries.output()).to.be.lessThan(7_000);
    expect(receiver.answered).to.have.length(0);
    expect(exit.code).to.equal(1);
  });
});
