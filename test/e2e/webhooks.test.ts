import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { balanceOf, call, createAccount, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { recordWebhookEvent } from '../../domain/webhooks/events.js';
import { postWebhook } from '../../activities/net/webhook-request.js';
import { countActions } from '../support/temporal-actions.js';
import { mailingWorkflowId } from '../../workflows/contract.js';
import type { MailingWorkflowInput } from '../../domain/mailings/workflow-input.js';

describe('webhook deliveries', function () {
  this.timeout(60_000);
  let account: TestAccount;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    account = await createAccount({ balanceCents: 10_000 });
    receiver = await new WebhookReceiver().start();
  });
  afterEach(async () => {
    await receiver.stop();
  });

  const endpoint = (env: 'test' | 'live', events: string[] = []) =>
    createWebhookEndpoint(stack().db, stack().config, { accountId: account.id, url: receiver.url, env, events });
  const mail = (key: string) => call('POST', '/v1/mailings', { key, body: { mode: 'simple', letter: freeLetter, sender, recipient } });

  it('retries a failing receiver with the same delivery id and a new timestamp, then counts the attempts', async () => {
    await endpoint('test', ['mailing.created']);
    let calls = 0;
    receiver.respond = () => ({ status: ++calls < 3 ? 500 : 200 });
    const { body: s } = await mail(account.testKey);
    const received = await receiver.until((r) => r.length >= 3);
    const ids = new Set(received.map((r) => r.headers['service-delivery']));
    expect(ids.size).to.equal(1);
    // Each attempt is signed anew: its own timestamp, a valid signature for it.
    const stamps = received.map((r) => Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(r.headers['service-signature']!)![1]));
    expect(stamps).to.deep.equal([...stamps].sort((a, b) => a - b));
    const secretRow = await stack().db('webhook_endpoints').where({ account_id: account.id }).first();
    const { decrypt } = await import('../../lib/crypto.js');
    const { createHmac } = await import('node:crypto');
    const secret = decrypt(secretRow.secret_sealed, stack().config.secretKey);
    for (const [i, r] of received.entries()) {
      expect(r.headers['service-signature']).to.equal(`t=${stamps[i]},v1=${createHmac('sha256', secret).update(`${stamps[i]}.${r.raw}`).digest('hex')}`);
    }
    expect(received.every((r) => r.body.id === received[0]!.body.id)).to.equal(true);
    await new Promise((r) => setTimeout(r, 300));
    const row = await stack()
      .db('webhook_deliveries')
      .where({ id: [...ids][0] })
      .first();
    expect(row).to.include({ status: 'delivered', attempts: 3, last_http_status: 200 });
    expect(s.id).to.be.a('string');
  });

  it('an AR test mailing taken to its end with one endpoint costs at most 30 Temporal actions, its deliveries included', async () => {
    await endpoint('test');
    const { body: s } = await call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'ar', letter: freeLetter, sender, recipient } });
    const advanced = await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: { step: 5 } });
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    await stack().temporal.client.workflow.getHandle(mailingWorkflowId(s.id)).result();
    // Eight events (created, printed, posted, in_transit, delivered, ar_signed and two proofs), each received.
    await receiver.until((r) => r.filter((w) => w.body.data.mailing.id === s.id).length >= 8);
    const actions = await countActions(stack().temporal.client, mailingWorkflowId(s.id));
    expect(actions.total, JSON.stringify(actions)).to.be.at.most(30);
    expect(actions.children, 'every first attempt succeeded: no delivery workflow').to.equal(0);
  });

  it('records mailing.created with the mailing and starts the workflow with it: its first task reads and writes nothing before the first attempt', async () => {
    await endpoint('test', ['mailing.created']);
    const { body: s } = await mail(account.testKey);
    const [received] = await receiver.until((r) => r.length >= 1);
    // The event carries the mailing as it was recorded, as GET shows it (without its letter).
    const { body: shown } = await call('GET', `/v1/mailings/${s.id}`, { key: account.testKey });
    const { document: _letter, ...withoutLetter } = shown as Record<string, unknown>;
    expect(received!.body.data.mailing).to.deep.equal(withoutLetter);
    const history = await stack().temporal.client.workflow.getHandle(mailingWorkflowId(s.id)).fetchHistory();
    const [payload] = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads!;
    const input = JSON.parse(Buffer.from(payload!.data!).toString()) as MailingWorkflowInput;
    expect(input.created!.deliveries.map((d) => d.deliveryId)).to.deep.equal([received!.headers['service-delivery']]);
    expect(input.created!.mailing).to.deep.equal(received!.body.data.mailing);
    const firstTask = history.events!.slice(0, history.events!.findIndex((e) => e.workflowTaskCompletedEventAttributes) + 3);
    expect(
      firstTask.filter((e) => e.markerRecordedEventAttributes),
      'no local activity',
    ).to.have.length(0);
    expect(firstTask.find((e) => e.activityTaskScheduledEventAttributes)?.activityTaskScheduledEventAttributes?.activityType?.name).to.equal('deliverWebhooks');
    // Recorded once: one event, one delivery.
    expect(await stack().db('webhook_events').where({ shipment_id: s.id, type: 'mailing.created' })).to.have.length(1);
    expect(await stack().db('webhook_deliveries').where({ account_id: account.id })).to.have.length(1);
  });

  it('derives each delivery id from its event and endpoint as the builds before did, in the statement that records the event', async () => {
    const { id } = await endpoint('test');
    // Computed by the build that derived delivery ids in JavaScript: uuidFrom(`<event id>/<endpoint id>`).
    const [eventId, endpointId, deliveryId] = [
      '3f1c7a52-9a0e-5d4b-8c61-0b7f2e9d4a10',
      '9b2d6e14-7c3a-4f85-a1d2-5e6f7a8b9c0d',
      'fe814c1b-f626-5ade-ad43-42a2d441a809',
    ];
    await stack().db('webhook_endpoints').where({ id }).update({ id: endpointId });
    const ping = { eventId, type: 'ping' as const, accountId: account.id, livemode: false, created: new Date().toISOString(), endpointId, data: {} };
    const [first] = await recordWebhookEvent(stack().db, ping);
    expect(first).to.deep.include({ deliveryId, endpointId, eventId });
    // Recorded again (a Reset): the same delivery, still pending, nothing new.
    expect(await recordWebhookEvent(stack().db, ping)).to.deep.equal([first]);
    expect(await stack().db('webhook_deliveries').where({ event_id: eventId })).to.have.length(1);
    // Once delivered, it is not started again.
    await stack().db('webhook_deliveries').where({ id: deliveryId }).update({ status: 'delivered' });
    expect(await recordWebhookEvent(stack().db, ping)).to.deep.equal([]);
  });

  it('abandons after 8 attempts', async () => {
    await endpoint('test', ['mailing.created']);
    receiver.respond = () => ({ status: 503 });
    await mail(account.testKey);
    await receiver.until((r) => r.length >= 8);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.received).to.have.length(8);
    const row = await stack().db('webhook_deliveries').where({ account_id: account.id }).first();
    expect(row).to.include({ status: 'abandoned', attempts: 8, last_http_status: 503 });
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    await endpoint('test', ['mailing.created']);
    receiver.respond = (r) => (receiver.received.indexOf(r) === 0 ? { status: 302, headers: { location: 'https://127.0.0.1:1/elsewhere' } } : { status: 204 });
    await mail(account.testKey);
    const received = await receiver.until((r) => r.length >= 2);
    expect(received[1]!.headers['service-delivery']).to.equal(received[0]!.headers['service-delivery']);
    await new Promise((r) => setTimeout(r, 300));
    const row = await stack().db('webhook_deliveries').where({ account_id: account.id }).first();
    expect(row).to.include({ status: 'delivered', attempts: 2, last_http_status: 204 });
  });

  it('sends test events to test endpoints only, and filters by event type', async () => {
    await endpoint('live');
    await endpoint('test', ['mailing.printed']);
    const { body: s } = await mail(account.testKey);
    await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: {} });
    await receiver.until((r) => r.length >= 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.map((r) => r.body.type)).to.deep.equal(['mailing.printed']);
    expect(receiver.received[0]!.body.livemode).to.equal(false);
  });

  it('sends mailing.created only to endpoints declared before the mailing', async () => {
    const { body: s } = await mail(account.testKey);
    await endpoint('test');
    await call('POST', `/v1/test/mailings/${s.id}/advance`, { key: account.testKey, body: {} });
    await receiver.until((r) => r.some((w) => w.body.type === 'mailing.printed'));
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.map((r) => r.body.type)).not.to.include('mailing.created');
  });

  it('refuses non-public targets at delivery time (SSRF), by address and by name', async () => {
    for (const url of [
      'https://127.0.0.1/h',
      'https://10.0.0.8/h',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/h',
      'https://localhost/h',
      'https://[::ffff:127.0.0.1]/h',
    ]) {
      const result = await postWebhook(url, {}, '{}', false);
      expect(result.ok, url).to.equal(false);
      expect(result.error, url).to.match(/^refused: /);
    }
  });

  it('runs a live mailing to the end: filed once despite a failed first filing, every step and proof announced', async () => {
    await endpoint('live');
    const before = await balanceOf(account.id);
    const res = await call('POST', '/v1/mailings', { key: account.liveKey, body: { mode: 'registered', letter: freeLetter, sender, recipient } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.id;
    await receiver.until((r) => r.some((w) => w.body.type === 'mailing.delivered' && w.body.data.mailing.id === id), 45_000);
    const final = await call('GET', `/v1/mailings/${id}`, { key: account.liveKey });
    expect(final.body).to.include({ status: 'delivered', step: 4, lastStep: 4, test: false, amountCents: 649 });
    expect(final.body.events.map((e: { step: number }) => e.step)).to.deep.equal([0, 1, 2, 3, 4]);
    const filing = await stack().db('operator_filings').where({ shipment_id: id }).first();
    expect(filing.attempts).to.equal(2);
    expect(filing.filed_at).to.be.instanceOf(Date);
    expect(await balanceOf(account.id)).to.equal(before - 649);
    await receiver.until((r) => r.filter((w) => w.body.type === 'mailing.proof_available').length >= 2);
    const types = receiver.received.map((r) => r.body.type);
    expect(types).to.include.members(['mailing.created', 'mailing.printed', 'mailing.posted', 'mailing.in_transit', 'mailing.delivered']);
    expect(receiver.received.every((r) => r.body.livemode === true)).to.equal(true);
  });

  it('debits an idempotent live POST once under concurrency', async () => {
    const before = await balanceOf(account.id);
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call('POST', '/v1/mailings', {
          key: account.liveKey,
          body: { mode: 'ar', letter: freeLetter, sender, recipient },
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created.length).to.be.at.least(1);
    expect(new Set(created.map((r) => r.body.id)).size).to.equal(1);
    expect(results.every((r) => r.status === 201 || r.status === 409)).to.equal(true);
    expect(await balanceOf(account.id)).to.equal(before - 799);
    expect(await stack().db('shipments').where({ account_id: account.id }).count('* as n').first()).to.deep.equal({ n: '1' });
  });
});
