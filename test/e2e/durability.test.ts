import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, createAccount, eventually, spawnApiProcess, type ApiProcess } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { mailing } from '../../workflows/index.js';
import { mailingWorkflowId } from '../../workflows/contract.js';
import { spawnNode } from '../support/processes.js';
import { PDFDocument } from 'pdf-lib';
import { SIMULATOR_PRODUCER } from '../../activities/operator/simulator-documents.js';

const QUEUE = 'durability-test';
const env = { TEMPORAL_TASK_QUEUE: QUEUE, OPERATOR_STEP_DELAY: '1500ms', OPERATOR_FAIL_FIRST_FILINGS: '0', LOG_LEVEL: 'warn' };

function startWorker(): ChildProcess {
  return spawnNode('worker', env);
}

describe('durability', function () {
  this.timeout(180_000);
  let api: ApiProcess;
  let worker: ChildProcess | undefined;

  before(async () => {
    api = await spawnApiProcess(env);
  });
  after(async () => {
    worker?.kill('SIGKILL');
    await api.stop();
  });

  it('a worker killed with SIGKILL mid-mailing: a new worker completes it, each step once, filed once', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    worker = startWorker();
    const res = await call('POST', '/v1/mailings', {
      baseUrl: api.url,
      key: account.liveKey,
      body: {
        mode: 'ar',
        letter: freeLetter,
        sender,
        recipient,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.id;
    const midway = await eventually(
      () => call('GET', `/v1/mailings/${id}`, { key: account.liveKey }),
      (r) => r.body.step >= 2,
      30_000,
      // Polls stay well under the key's 120 requests per minute.
      600,
    );
    expect(midway.body.step, JSON.stringify(midway.body)).to.be.at.least(2);
    worker.kill('SIGKILL');
    await once(worker, 'exit');
    await sleep(2000);
    worker = startWorker();
    const done = await eventually(
      () => call('GET', `/v1/mailings/${id}`, { key: account.liveKey }),
      (r) => r.body.status === 'ar_signed',
      120_000,
      600,
    );
    expect(done.body.events.map((e: { status: string }) => e.status)).to.deep.equal(['paid', 'printed', 'posted', 'in_transit', 'delivered', 'ar_signed']);
    // The workflow ends after the last proof is announced.
    await stack().temporal.client.workflow.getHandle(mailingWorkflowId(id)).result();
    const filing = await stack().db('operator_filings').where({ shipment_id: id }).first();
    expect(filing.filed_at).to.be.instanceOf(Date);
    const events = await stack().db('webhook_events').where({ shipment_id: id }).select('type', 'payload');
    const counts = events.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e.type]: (acc[e.type] ?? 0) + 1 }), {});
    expect(counts).to.deep.equal({
      'mailing.created': 1,
      'mailing.printed': 1,
      'mailing.posted': 1,
      'mailing.in_transit': 1,
      'mailing.delivered': 1,
      'mailing.ar_signed': 1,
      'mailing.proof_available': 2,
    });
    // Like Maileva's, the simulated operator's own documents: its deposit proof and its acknowledgment.
    const proofs = await stack().db('shipment_proofs').where({ shipment_id: id }).orderBy('kind').select('kind', 'pdf');
    const documents = await Promise.all(
      proofs.map(async (p: { kind: string; pdf: Buffer }) => {
        const pdf = await PDFDocument.load(p.pdf, { updateMetadata: false });
        return { kind: p.kind, producer: pdf.getProducer(), title: pdf.getTitle() };
      }),
    );
    expect(documents).to.deep.equal([
      { kind: 'delivery', producer: SIMULATOR_PRODUCER, title: `Avis de réception ${done.body.trackingNumber}` },
      { kind: 'filing', producer: SIMULATOR_PRODUCER, title: `Preuve de dépôt ${done.body.trackingNumber}` },
    ]);
  });
});

describe('Temporal unreachable', function () {
  this.timeout(60_000);
  it('POST /v1/mailings answers 503 and records neither a debit nor a shipment', async () => {
    const { freePort } = await import('../../lib/net/ports.js');
    const { balanceOf } = await import('../support/api.js');
    const api = await spawnApiProcess({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` });
    try {
      const account = await createAccount({ balanceCents: 1000 });
      const res = await call('POST', '/v1/mailings', {
        baseUrl: api.url,
        key: account.liveKey,
        body: {
          mode: 'simple',
          letter: freeLetter,
          sender,
          recipient,
        },
      });
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('service_unavailable');
      expect(await balanceOf(account.id)).to.equal(1000);
      expect(res.headers.get('x-service-balance')).to.equal('1000');
      expect(await stack().db('shipments').where({ account_id: account.id }).count('* as n').first()).to.deep.equal({ n: '0' });
      const ledger = await stack().db('ledger_entries').where({ account_id: account.id }).orderBy('id').select('kind', 'amount_cents');
      expect(ledger.map((l) => [l.kind, Number(l.amount_cents)])).to.deep.equal([['topup', 1000]]);
    } finally {
      await api.stop();
    }
  });
});

describe('a mailing workflow whose shipment is never recorded', function () {
  this.timeout(90_000);
  it('waits for the shipment, then ends without doing anything', async () => {
    const mailingId = (await import('node:crypto')).randomUUID();
    const { client } = stack().temporal;
    const started = Date.now();
    const result = await client.workflow.execute(mailing, {
      taskQueue: stack().config.taskQueue,
      workflowId: mailingWorkflowId(mailingId),
      args: [{ shipmentId: mailingId, accountId: mailingId, mode: 'simple', test: false, webhookRetryDelaysMs: [1000] }],
    });
    expect(result).to.equal(null);
    // It waited for the recording's whole time bound (four statements of 5 s) before giving up.
    expect(Date.now() - started).to.be.above(25_000);
    expect(await stack().db('operator_filings').where({ shipment_id: mailingId }).first()).to.equal(undefined);
    expect(await stack().db('webhook_events').where({ shipment_id: mailingId }).first()).to.equal(undefined);
    // It left a tombstone: a record that comes now (the API was slower than the workflow's
    // patience) fails as a whole, so no debit stands for a mailing without its workflow.
    expect((await stack().db('mailing_records').where({ shipment_id: mailingId }).first())?.outcome).to.equal('abandoned');
    const late = await stack()
      .db('mailing_records')
      .insert({ shipment_id: mailingId, outcome: 'recorded' })
      .catch((error: { constraint?: string }) => error);
    expect((late as { constraint?: string }).constraint).to.equal('mailing_records_pkey');
  });

  it('goes on when the record won the race against its giving up', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    const created = await call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
    expect(created.status).to.equal(201);
    // Recorded by the API: the workflow's tombstone cannot be written any more.
    expect((await stack().db('mailing_records').where({ shipment_id: created.body.id }).first())?.outcome).to.equal('recorded');
    const rows = await stack().db.raw(
      `INSERT INTO mailing_records (shipment_id, outcome) VALUES (?, 'abandoned') ON CONFLICT (shipment_id) DO NOTHING RETURNING outcome`,
      [created.body.id],
    );
    expect(rows.rows).to.deep.equal([]);
  });
});
