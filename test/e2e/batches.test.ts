import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { balanceOf, call, createAccount, eventually, startedMailingWorkflow, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { recipient, sender } from '../support/fixtures.js';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { mailingCreatedEventId, recordWebhookEvent } from '../../domain/webhooks/events.js';
import { mailingEventKey } from '../../domain/webhooks/event-types.js';
import type { MailingWorkflowInput } from '../../domain/mailings/workflow-input.js';
import { MAX_BATCH_ROWS } from '../../api/schemas/batches.js';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { spawnApiProcess, type ApiProcess } from '../support/api.js';
import { spawnNode } from '../support/processes.js';
import { batchWorkflowId } from '../../workflows/contract.js';
import { parisDate } from '../../lib/paris-time.js';
import { base64, textPdf } from '../support/own-pdfs.js';
import { priceOf } from '../../domain/billing/prices.js';
import { saveBillingProfile } from '../../domain/billing/profiles.js';
import { recordVerifiedSender } from '../support/senders.js';

const letter = { title: 'Votre contrat {{contrat}}', body: 'Bonjour {{prenom}},\n\nVotre contrat {{contrat}} est renouvelé.\n\nMarie Dupont' };
/** Rows to the same (checked) address under different names: the address base answers once. */
const rows = (count: number, prefix = 'C') =>
  Array.from({ length: count }, (_, i) => ({
    recipient: { ...recipient, name: `Personne ${i}` },
    fields: { prenom: `Prénom${i}`, contrat: `${prefix}-${i}` },
    reference: `${prefix}-${i}`,
  }));
const batchBody = (count: number, extra: Record<string, unknown> = {}) => ({ mode: 'simple', letter, sender, rows: rows(count), ...extra });
const post = (key: string, body: unknown, headers: Record<string, string> = {}) => call('POST', '/v1/mailing-batches', { key, body, headers });
const ledgerOf = async (accountId: string) =>
  (await stack().db('ledger_entries').where({ account_id: accountId, kind: 'debit' }).select('amount_cents', 'reference')).map((e) => ({
    ...e,
    amount_cents: Number(e.amount_cents),
  }));
const mailingsOf = (accountId: string) => stack().db('shipments').where({ account_id: accountId }).select('id', 'batch_id');

/** POST /v1/mailing-batches (issue 29, part 1): all or nothing, paid once, one mailing per row. */
describe('mailing batches', function () {
  this.timeout(120_000);
  let account: TestAccount;
  before(async () => {
    account = await createAccount({ balanceCents: 100_000 });
  });

  it('dryRun: every row checked with the 422 reasons of a single mailing, the total priced, nothing created or charged', async () => {
    const body = batchBody(3, { dryRun: true });
    body.rows[1]!.recipient = { ...recipient, postcode: '99999' };
    body.rows[2]!.fields = { prenom: 'Sans contrat' } as (typeof body.rows)[number]['fields'];
    const before = await balanceOf(account.id);
    const res = await post(account.liveKey, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ valid: false, rowCount: 3, invalidCount: 2 });
    const [ok, badAddress, missingField] = res.body.rows;
    expect(ok).to.include({ index: 0, ok: true, reference: 'C-0', error: null });
    expect(ok.amountCents).to.be.above(0);
    expect(res.body.amountCents).to.equal(ok.amountCents);
    expect(badAddress.ok).to.equal(false);
    expect(badAddress.error.code).to.equal('address_invalid');
    // The same answer a single mailing gets for that recipient.
    const single = await call('POST', '/v1/mailing-quotes', {
      key: account.liveKey,
      body: { mode: 'simple', letter: { title: 't', body: 'b' }, sender, recipient: body.rows[1]!.recipient },
    });
    expect(single.status).to.equal(422);
    expect(badAddress.error).to.deep.equal({ code: single.body.error.code, message: single.body.error.message, details: single.body.error.details });
    expect(missingField.error.code).to.equal('field_missing');
    expect(missingField.error.details).to.deep.equal({ field: 'rows[2].fields.contrat' });
    expect(await balanceOf(account.id)).to.equal(before);
    expect(await mailingsOf(account.id)).to.have.length(0);
  });

  it('an invalid row refuses the whole batch (422 batch_invalid with the report), nothing created or charged', async () => {
    const body = batchBody(3);
    body.rows[2]!.recipient = { ...recipient, postcode: '99999' };
    const before = await balanceOf(account.id);
    const res = await post(account.liveKey, body);
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('batch_invalid');
    expect(res.body.error.details.rows.map((r: { ok: boolean }) => r.ok)).to.deep.equal([true, true, false]);
    expect(await balanceOf(account.id)).to.equal(before);
    expect(await mailingsOf(account.id)).to.have.length(0);
  });

  it('refuses more rows than the limit (400) and a balance short of the total (402), creating nothing', async () => {
    const tooMany = await post(account.liveKey, { ...batchBody(1), rows: Array.from({ length: MAX_BATCH_ROWS + 1 }, () => ({ recipient })) });
    expect(tooMany.status).to.be.oneOf([400, 413]);
    const poor = await createAccount({ balanceCents: 100 });
    const res = await post(poor.liveKey, batchBody(2));
    expect(res.status, JSON.stringify(res.body)).to.equal(402);
    expect(res.body.error.code).to.equal('insufficient_balance');
    expect(await mailingsOf(poor.id)).to.have.length(0);
  });

  it(`checks ${MAX_BATCH_ROWS} rows (the most, inside SPEC.md's 1 MB body) in one dry run`, async () => {
    const body = batchBody(MAX_BATCH_ROWS, { dryRun: true });
    expect(Buffer.byteLength(JSON.stringify(body))).to.be.below(1_000_000);
    const res = await post(account.liveKey, body);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ valid: true, rowCount: MAX_BATCH_ROWS, invalidCount: 0 });
  });

  it('creates one normal mailing per row, debited once, listed by GET /v1/mailings?batch=, each with its workflow', async () => {
    const before = await balanceOf(account.id);
    const res = await post(account.liveKey, batchBody(3));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const batch = res.body;
    expect(res.headers.get('location')).to.equal(`/v1/mailing-batches/${batch.id}`);
    expect(batch).to.include({ mode: 'simple', test: false, status: 'processing', mailingCount: 3, finishedAt: null });
    expect(batch.counts).to.deep.equal({ paid: 3 });
    expect(await balanceOf(account.id)).to.equal(before - batch.amountCents);
    expect(res.headers.get('x-service-balance')).to.equal(String(before - batch.amountCents));
    const debits = await ledgerOf(account.id);
    expect(debits).to.deep.equal([{ amount_cents: -batch.amountCents, reference: `batch:${batch.id}` }]);

    const list = await call('GET', `/v1/mailings?batch=${batch.id}`, { key: account.liveKey });
    expect(list.status).to.equal(200);
    expect(list.body.data).to.have.length(3);
    for (const mailing of list.body.data) {
      expect(mailing.batch).to.equal(batch.id);
      const i = Number(mailing.reference.slice(2));
      expect(mailing.document.text).to.include(`Bonjour Prénom${i},`).and.include(`Votre contrat C-${i} est renouvelé`);
      expect(mailing.title).to.equal(`Votre contrat C-${i}`);
      expect(mailing.amountCents * 3).to.equal(batch.amountCents);
      await startedMailingWorkflow(mailing.id);
    }
    // A mailing of its own has no batch, and is not in the batch's list.
    const single = await call('POST', '/v1/mailings', { key: account.liveKey, body: { mode: 'simple', letter: { title: 't', body: 'b' }, sender, recipient } });
    expect(single.body.batch).to.equal(null);
    const again = await call('GET', `/v1/mailings?batch=${batch.id}&limit=2`, { key: account.liveKey });
    expect(again.body.data.map((m: { id: string }) => m.id)).to.not.include(single.body.id);
    expect(again.body.hasMore).to.equal(true);

    const got = await call('GET', `/v1/mailing-batches/${batch.id}`, { key: account.liveKey });
    expect(got.status).to.equal(200);
    expect(got.body.id).to.equal(batch.id);
    const listed = await call('GET', '/v1/mailing-batches?limit=1', { key: account.liveKey });
    expect(listed.body.data[0].id).to.equal(batch.id);
    expect((await call('GET', `/v1/mailing-batches/${batch.id}`, { key: account.testKey })).status).to.equal(404);
  });

  it('a PDF batch: the PDF checked once and stored once, each row a mailing that prints it', async () => {
    const pdf = await textPdf({ pages: 2 });
    const res = await post(account.testKey, {
      mode: 'simple',
      letter: { pdf: base64(pdf) },
      sender,
      rows: rows(4, 'P').map(({ recipient, reference }) => ({ recipient, reference })),
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const list = await call('GET', `/v1/mailings?batch=${res.body.id}`, { key: account.testKey });
    expect(list.body.data).to.have.length(4);
    const hashes = new Set(
      list.body.data.map((m: { document: { kind: string; sha256: string } }) => (expect(m.document.kind).to.equal('pdf'), m.document.sha256)),
    );
    expect(hashes.size).to.equal(1);
    const [sha256] = [...hashes] as string[];
    expect(await stack().db('shipment_pdfs').where({ sha256 }).count({ n: '*' }).first()).to.deep.equal({ n: '4' });
    const stored = await stack().db('pdf_documents').where({ sha256 }).select('pdf');
    expect(stored).to.have.length(1);
    expect(Buffer.compare(stored[0].pdf, Buffer.from(pdf))).to.equal(0);
  });

  it('the same Idempotency-Key sent many times at once creates one batch, debited once', async () => {
    const rich = await createAccount({ balanceCents: 100_000 });
    const key = randomUUID();
    const body = batchBody(2);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(rich.liveKey, body, { 'idempotency-key': key })));
    const created = answers.filter((a) => a.status === 201);
    expect(
      answers.every((a) => a.status === 201 || (a.status === 409 && a.body.error.code === 'idempotency_in_progress')),
      JSON.stringify(answers.map((a) => a.body)),
    ).to.equal(true);
    expect(created.length).to.be.at.least(1);
    expect(new Set(created.map((a) => a.body.id)).size).to.equal(1);
    const replay = await post(rich.liveKey, body, { 'idempotency-key': key });
    expect(replay.status).to.equal(201);
    expect(replay.body.id).to.equal(created[0]!.body.id);
    expect(await stack().db('mailing_batches').where({ account_id: rich.id })).to.have.length(1);
    expect(await mailingsOf(rich.id)).to.have.length(2);
    expect(await ledgerOf(rich.id)).to.have.length(1);
  });

  it('two batches at once against a balance that pays for one: exactly one is created', async () => {
    const probe = await post(account.liveKey, batchBody(3, { dryRun: true }));
    const scarce = await createAccount({ balanceCents: probe.body.amountCents + 10 });
    const answers = await Promise.all([post(scarce.liveKey, batchBody(3)), post(scarce.liveKey, batchBody(3))]);
    expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 402]);
    expect(await mailingsOf(scarce.id)).to.have.length(3);
    expect(await balanceOf(scarce.id)).to.equal(10);
  });

  describe('completion', () => {
    let receiver: WebhookReceiver;
    before(async () => {
      receiver = await new WebhookReceiver().start();
    });
    after(() => receiver.stop());

    it('mailing_batch.completed once every mailing is final, only to the endpoints that name it', async () => {
      const owner = await createAccount({ balanceCents: 0 });
      const { db, config } = stack();
      const everything = await createWebhookEndpoint(db, config, { accountId: owner.id, url: receiver.url + '?all', env: 'test', events: [] });
      const chosen = await createWebhookEndpoint(db, config, {
        accountId: owner.id,
        url: receiver.url + '?chosen',
        env: 'test',
        events: ['mailing_batch.completed'],
      });
      const res = await post(owner.testKey, batchBody(2));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ test: true, amountCents: 0 });
      const mailings = (await call('GET', `/v1/mailings?batch=${res.body.id}`, { key: owner.testKey })).body.data;
      await call('POST', `/v1/mailings/${mailings[0].id}/cancel`, { key: owner.testKey });
      await startedMailingWorkflow(mailings[1].id);
      // One final, one not: the batch waits.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await call('GET', `/v1/mailing-batches/${res.body.id}`, { key: owner.testKey })).body.status).to.equal('processing');
      expect((await call('POST', `/v1/test/mailings/${mailings[1].id}/advance`, { key: owner.testKey, body: { status: 'error' } })).status).to.equal(200);
      const done = await eventually(
        () => call('GET', `/v1/mailing-batches/${res.body.id}`, { key: owner.testKey }),
        (r) => r.body.status === 'completed',
        20_000,
        500,
      );
      expect(done.body.counts).to.deep.equal({ canceled: 1, error: 1 });
      expect(done.body.finishedAt).to.be.a('string');
      await receiver.until((got) => got.some((w) => w.body.type === 'mailing_batch.completed'));
      const completed = receiver.ofType('mailing_batch.completed');
      expect(completed).to.have.length(1);
      expect(completed[0]!.body.data.batch).to.deep.include({ id: res.body.id, status: 'completed' });
      const deliveries = await db('webhook_deliveries').where({ event_id: completed[0]!.body.id }).select('endpoint_id');
      expect(deliveries.map((d) => d.endpoint_id)).to.deep.equal([chosen.id]);
      expect(deliveries.map((d) => d.endpoint_id)).to.not.include(everything.id);
    });

    it("records each mailing's mailing.created with the batch, and starts each workflow with it: delivered once, without a local activity", async () => {
      const owner = await createAccount({ balanceCents: 0 });
      const { db, config } = stack();
      const everything = await createWebhookEndpoint(db, config, { accountId: owner.id, url: receiver.url + '?all', env: 'test', events: [] });
      await createWebhookEndpoint(db, config, { accountId: owner.id, url: receiver.url + '?batch-only', env: 'test', events: ['mailing_batch.completed'] });
      await createWebhookEndpoint(db, config, { accountId: owner.id, url: receiver.url + '?live', env: 'live', events: [] });
      const res = await post(owner.testKey, batchBody(3));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      // Declared after the batch's creation: hears nothing of its mailings' creation.
      await createWebhookEndpoint(db, config, { accountId: owner.id, url: receiver.url + '?later', env: 'test', events: [] });
      const ids = (await mailingsOf(owner.id)).map((m) => m.id as string).sort();
      expect(ids).to.have.length(3);

      // Committed with the batch: one event per mailing, one pending delivery each, to the test endpoint that takes every event.
      const events = await db('webhook_events').whereIn('shipment_id', ids).andWhere({ type: 'mailing.created' }).select('id', 'shipment_id', 'payload');
      expect(events.map((e) => e.shipment_id).sort()).to.deep.equal(ids);
      for (const event of events) expect(event.id).to.equal(mailingCreatedEventId(event.shipment_id));
      const deliveries = await db('webhook_deliveries').where({ account_id: owner.id }).select('id', 'event_id', 'endpoint_id');
      expect(deliveries).to.have.length(3);
      expect(new Set(deliveries.map((d) => d.endpoint_id))).to.deep.equal(new Set([everything.id]));

      // Each workflow started with its event: the first task schedules the first attempt at once.
      const ofBatch = (got: ReceivedWebhook[]) => got.filter((w) => w.body.type === 'mailing.created' && ids.includes(w.body.data.mailing.id));
      const received = ofBatch(await receiver.until((got) => ofBatch(got).length >= 3));
      for (const id of ids) {
        const history = await (await startedMailingWorkflow(id)).fetchHistory();
        const [payload] = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads!;
        const input = JSON.parse(Buffer.from(payload!.data!).toString()) as MailingWorkflowInput;
        const delivery = deliveries.find((d) => d.event_id === mailingCreatedEventId(id))!;
        expect(input.created!.deliveries).to.deep.equal([
          { deliveryId: delivery.id, accountId: owner.id, endpointId: everything.id, eventId: delivery.event_id, eventType: 'mailing.created' },
        ]);
        const { body: shown } = await call('GET', `/v1/mailings/${id}`, { key: owner.testKey });
        const { document: _letter, ...withoutLetter } = shown as Record<string, unknown>;
        expect(input.created!.mailing).to.deep.equal(withoutLetter);
        const firstTask = history.events!.slice(0, history.events!.findIndex((e) => e.workflowTaskCompletedEventAttributes) + 3);
        expect(
          firstTask.filter((e) => e.markerRecordedEventAttributes),
          'no local activity',
        ).to.have.length(0);
        // Received once, as recorded.
        const heard = received.filter((w) => w.body.data.mailing.id === id);
        expect(heard, id).to.have.length(1);
        expect(heard[0]!.body.id).to.equal(delivery.event_id);
        expect(heard[0]!.headers['service-delivery']).to.equal(delivery.id);
      }
      // Nothing more comes: each mailing.created once, through the recorded delivery only.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(ofBatch(receiver.received)).to.have.length(3);
      // The event recorded again one by one (a resumed workflow does): the same ids, nothing new.
      const again = await recordWebhookEvent(db, {
        eventKey: mailingEventKey(ids[0]!, 'mailing.created', 0),
        type: 'mailing.created',
        accountId: owner.id,
        livemode: false,
        created: new Date().toISOString(),
        mailing: JSON.parse(JSON.stringify(events.find((e) => e.shipment_id === ids[0])!.payload.data.mailing)),
        endpointsCreatedBy: res.body.createdAt,
      });
      expect(again, 'delivered already: none to start').to.deep.equal([]);
      expect(await db('webhook_deliveries').where({ account_id: owner.id })).to.have.length(3);
      expect(await db('webhook_events').whereIn('shipment_id', ids).andWhere({ type: 'mailing.created' })).to.have.length(3);
    });
  });
});

/** A batch by the electronic channel (issue 54): every row checked as a single electronic mailing, the holds of the paper fallback debited with it. */
describe('mailing batches: the electronic channel', function () {
  this.timeout(120_000);
  let account: TestAccount;
  before(async () => {
    account = await createAccount({ balanceCents: 100_000 });
    // A live electronic letter names a verified sender: the company of the billing profile, the person of the identity check.
    await saveBillingProfile(stack().db, account.id, {
      legalName: 'Contrats Martin SAS',
      addressLine1: '3 rue du Port',
      addressLine2: null,
      postalCode: '44000',
      city: 'Nantes',
      country: 'FR',
      siret: '85234567800012',
      vatNumber: null,
      email: `contrats-${account.id}@example.fr`,
    });
    await recordVerifiedSender(stack().db, account.id, 'simulator', { email: `contrats-${account.id}@example.fr`, firstName: 'Anne', lastName: 'Martin' });
  });
  const electronicRows = (count: number) => rows(count, 'E').map((row, i) => ({ ...row, recipientEmail: `personne${i}@example.fr` }));
  const electronicBody = (count: number, electronic: Record<string, unknown>) => ({
    ...batchBody(count),
    mode: 'ar',
    rows: electronicRows(count),
    channel: 'electronic',
    electronic,
  });

  it("refuses rows a single electronic mailing would refuse (no email, a consumer's missing consent; a simple batch), creating nothing", async () => {
    const body = electronicBody(3, { recipientKind: 'consumer', fallback: 'paper', consent: { date: '2026-01-10', means: 'conditions générales' } });
    delete (body.rows[1] as { recipientEmail?: string }).recipientEmail;
    const res = await post(account.liveKey, { ...body, dryRun: true });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.rows.map((r: { ok: boolean; error: { code: string } | null }) => r.error?.code ?? 'ok')).to.deep.equal([
      'ok',
      'recipient_email_required',
      'ok',
    ]);
    // Without the batch's consent, each consumer row needs its own.
    const { consent: _consent, ...withoutConsent } = body.electronic as Record<string, unknown>;
    const rowsWithOne = electronicRows(2).map((row, i) => (i === 0 ? { ...row, consent: { date: '2026-02-01', means: 'formulaire en ligne' } } : row));
    const consents = await post(account.liveKey, { ...body, electronic: withoutConsent, rows: rowsWithOne, dryRun: true });
    expect(consents.body.rows.map((r: { error: { code: string } | null }) => r.error?.code ?? 'ok')).to.deep.equal(['ok', 'consent_required']);
    const simple = await post(account.liveKey, { ...body, mode: 'simple' });
    expect(simple.status).to.equal(422);
    expect(simple.body.error.code).to.equal('batch_invalid');
    expect(simple.body.error.details.rows[0].error.code).to.equal('channel_not_available');
    expect(await mailingsOf(account.id)).to.have.length(0);
  });

  it('creates electronic mailings, debited once for the letters and once for the paper fallback held, each mailing holding its own', async () => {
    const before = await balanceOf(account.id);
    const quote = await post(account.liveKey, { ...electronicBody(3, { recipientKind: 'professional', fallback: 'paper' }), dryRun: true });
    const res = await post(account.liveKey, electronicBody(3, { recipientKind: 'professional', fallback: 'paper' }));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const batch = res.body;
    expect(batch).to.include({ mode: 'ar', channel: 'electronic', fallback: 'paper', mailingCount: 3 });
    expect(batch.amountCents).to.equal(quote.body.amountCents);
    const electronic = priceOf('mailing.electronic');
    const held = priceOf('mailing.ar');
    expect(batch.amountCents).to.equal(3 * (electronic + held));
    expect(await balanceOf(account.id)).to.equal(before - batch.amountCents);
    expect(
      (
        await stack()
          .db('ledger_entries')
          .where({ account_id: account.id, reference: `batch:${batch.id}` })
          .orderBy('id')
          .select('unit', 'amount_cents')
      ).map((e) => ({
        unit: e.unit,
        amount_cents: Number(e.amount_cents),
      })),
    ).to.deep.equal([
      { unit: 'mailing.electronic', amount_cents: -3 * electronic },
      { unit: 'mailing.fallback_hold', amount_cents: -3 * held },
    ]);
    const mailings = await stack().db('shipments').where({ batch_id: batch.id }).orderBy('reference');
    expect(mailings.map((m) => [m.channel, m.recipient_email, m.fallback_hold_cents, m.amount_cents])).to.deep.equal(
      [0, 1, 2].map((i) => ['electronic', `personne${i}@example.fr`, held, electronic + held]),
    );
    const got = await call('GET', `/v1/mailings/${mailings[0].id}`, { key: account.liveKey });
    expect(got.body).to.include({ channel: 'electronic' });
    expect(got.body.electronic).to.include({ recipientKind: 'professional', fallback: 'paper', fallbackUsed: false });
    // A paper batch says so.
    const paper = await post(account.testKey, batchBody(1));
    expect(paper.body).to.include({ channel: 'paper', fallback: null });
  });
});

describe('mailing batches: a worker killed mid-batch', function () {
  this.timeout(240_000);
  const QUEUE = 'batches-durability-test';
  const env = { TEMPORAL_TASK_QUEUE: QUEUE, LOG_LEVEL: 'warn' };
  let api: ApiProcess;
  let worker: ChildProcess | undefined;
  before(async () => {
    api = await spawnApiProcess(env);
  });
  after(async () => {
    worker?.kill('SIGKILL');
    await api.stop();
  });

  it('creates each mailing once: one record, one workflow each, the balance debited once', async () => {
    const ROWS = 500;
    const owner = await createAccount({ balanceCents: 1_000_000 });
    worker = spawnNode('worker', env);
    // Live letters filed tomorrow: paid and recorded now, their workflows wait (no printing).
    const [y, m, d] = parisDate().split('-').map(Number) as [number, number, number];
    const sendAt = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
    const res = await call('POST', '/v1/mailing-batches', { baseUrl: api.url, key: owner.liveKey, body: batchBody(ROWS, { sendAt }) });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
    const { client } = stack().temporal;
    // Killed as soon as the first mailing's workflow exists (the batch starts them by id, in one activity that a new worker retries from its last heartbeat).
    const firstId = (await mailingsOf(owner.id)).map((s) => s.id).sort()[0]!;
    const exists = (id: string): Promise<boolean> =>
      client.workflow
        .getHandle(`mailing-${id}`)
        .describe()
        .then(
          () => true,
          () => false,
        );
    await eventually(
      () => exists(firstId),
      (found) => found,
      30_000,
      20,
    );
    // Listened for before the kill: the exit may come while the checks below are awaited, and an
    // exit event missed then left this test waiting until its timeout (CI of 2026-12-07 and 12-08).
    const exited = once(worker, 'exit');
    worker.kill('SIGKILL');
    // Killed mid-batch: some mailings' workflows started, not all (the last one is not).
    const lastId = (await mailingsOf(owner.id))
      .map((s) => s.id)
      .sort()
      .at(-1)!;
    expect(await exists(lastId)).to.equal(false);
    await exited;
    worker = spawnNode('worker', env);

    const countWorkflows = async (): Promise<string[]> => {
      const ids: string[] = [];
      for await (const execution of client.workflow.list({ query: `WorkflowType = 'mailing' AND AccountId = '${owner.id}'` })) ids.push(execution.workflowId);
      return ids;
    };
    const ids = await eventually(countWorkflows, (found) => found.length >= ROWS, 120_000, 1000);
    const mailings = await mailingsOf(owner.id);
    expect(mailings).to.have.length(ROWS);
    expect(ids).to.have.length(ROWS);
    expect(new Set(ids)).to.deep.equal(new Set(mailings.map((s) => `mailing-${s.id}`)));
    expect(
      await stack()
        .db('mailing_records')
        .whereIn(
          'shipment_id',
          mailings.map((s) => s.id),
        ),
    ).to.have.length(ROWS);
    expect(await ledgerOf(owner.id)).to.deep.equal([{ amount_cents: -res.body.amountCents, reference: `batch:${res.body.id}` }]);
    expect(await balanceOf(owner.id)).to.equal(1_000_000 - res.body.amountCents);
    // The batch went on to wait for its mailings: every one started, none twice.
    const batchRun = await client.workflow.getHandle(batchWorkflowId(res.body.id)).describe();
    expect(batchRun.status.name).to.equal('RUNNING');
  });
});
