import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { call, createAccount, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { priceOf } from '../../domain/billing/prices.js';
import { parisDate } from '../../lib/paris-time.js';

/**
 * The electronic channel of registered letters (issue 54) at the API's door: what POST
 * /v1/mailings accepts and refuses, what the Mailing shows, and what the price says.
 */
describe('electronic mailings: the request', function () {
  this.timeout(60_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount({ balanceCents: 5000 });
  });

  const post = (body: unknown, key = account.testKey) => call('POST', '/v1/mailings', { key, body });
  const quote = (body: unknown) => call('POST', '/v1/mailing-quotes', { key: account.testKey, body });
  const professional = { recipientKind: 'professional' };
  const consent = { date: '2026-01-10', means: 'clause 12 of the lease signed 2026-01-10' };
  const electronicLetter = (extra: Record<string, unknown> = {}) => ({
    mode: 'ar',
    letter: freeLetter,
    sender,
    recipient,
    recipientEmail: 'mairie@example.org',
    channel: 'electronic',
    electronic: professional,
    ...extra,
  });

  it('a paper request is unchanged: channel paper, electronic null, its lastStep and price as before', async () => {
    const res = await post({ mode: 'registered', letter: freeLetter, sender, recipient });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ channel: 'paper', electronic: null, lastStep: 4, status: 'paid', step: 0 });
    const read = await call('GET', `/v1/mailings/${res.body.id}`, { key: account.testKey });
    expect(read.body).to.include({ channel: 'paper', electronic: null });
    const priced = await quote({ mode: 'registered', letter: freeLetter, sender, recipient });
    expect(priced.body.lines).to.deep.equal([{ unit: 'mailing.registered', quantity: 1, amountCents: priceOf('mailing.registered') }]);
  });

  it('an electronic test mailing: channel electronic, its electronic object, lastStep 3, nothing billed', async () => {
    const res = await post(electronicLetter({ electronic: { recipientKind: 'consumer', consent, fallback: 'paper' } }));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ channel: 'electronic', lastStep: 3, step: 0, status: 'paid', amountCents: 0, mode: 'ar' });
    expect(res.body.electronic).to.deep.equal({ recipientKind: 'consumer', consent, fallback: 'paper', fallbackUsed: false, providerReference: null });
    const read = await call('GET', `/v1/mailings/${res.body.id}`, { key: account.testKey });
    expect(read.body.electronic).to.deep.equal(res.body.electronic);
    // fallback defaults to none; a professional's consent is not needed.
    const plain = await post(electronicLetter({ mode: 'registered' }));
    expect(plain.status, JSON.stringify(plain.body)).to.equal(201);
    expect(plain.body.electronic).to.deep.equal({
      recipientKind: 'professional',
      consent: null,
      fallback: 'none',
      fallbackUsed: false,
      providerReference: null,
    });
  });

  it('is priced mailing.electronic instead of the mode, with the paper price held for a paper fallback', async () => {
    const alone = await quote(electronicLetter());
    expect(alone.status, JSON.stringify(alone.body)).to.equal(200);
    expect(priceOf('mailing.electronic')).to.equal(349);
    expect(alone.body).to.include({ amountCents: 349 });
    expect(alone.body.lines).to.deep.equal([{ unit: 'mailing.electronic', quantity: 1, amountCents: 349 }]);
    const held = await quote(electronicLetter({ electronic: { ...professional, fallback: 'paper' } }));
    expect(held.body.lines).to.deep.equal([
      { unit: 'mailing.electronic', quantity: 1, amountCents: 349 },
      { unit: 'mailing.fallback_hold', quantity: 1, amountCents: priceOf('mailing.ar') },
    ]);
    expect(held.body.amountCents).to.equal(349 + priceOf('mailing.ar'));
  });

  const refused = async (body: unknown, code: string, field: unknown) => {
    const res = await post(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body.error.code).to.equal(code);
    expect(res.body.error.details).to.deep.equal(field);
    return res;
  };

  it('422 channel_not_available: a simple letter is posted only', async () => {
    await refused(electronicLetter({ mode: 'simple' }), 'channel_not_available', { field: 'channel' });
  });

  it('422 recipient_email_required: an electronic letter goes to an email address', async () => {
    const { recipientEmail: _, ...withoutEmail } = electronicLetter();
    await refused(withoutEmail, 'recipient_email_required', { field: 'recipientEmail' });
  });

  it('422 consent_required: a consumer recipient without the statement of its prior consent', async () => {
    await refused(electronicLetter({ electronic: { recipientKind: 'consumer' } }), 'consent_required', { field: 'electronic.consent' });
  });

  it('422 unprocessable: electronic missing for channel electronic, given for paper, a consent dated in the future', async () => {
    await refused(electronicLetter({ electronic: undefined }), 'unprocessable', { field: 'electronic' });
    await refused({ mode: 'ar', letter: freeLetter, sender, recipient, electronic: professional }, 'unprocessable', { field: 'electronic' });
    await refused({ mode: 'ar', letter: freeLetter, sender, recipient, channel: 'paper', electronic: professional }, 'unprocessable', { field: 'electronic' });
    const tomorrow = parisDate(Date.now() + 2 * 86_400_000);
    await refused(electronicLetter({ electronic: { recipientKind: 'consumer', consent: { date: tomorrow, means: 'form' } } }), 'unprocessable', [
      { field: 'electronic.consent.date', message: 'in the future' },
    ]);
  });

  it('400 invalid_request for shapes: an unknown channel, recipientKind or fallback, an empty or long means', async () => {
    for (const body of [
      electronicLetter({ channel: 'fax' }),
      electronicLetter({ electronic: { recipientKind: 'company' } }),
      electronicLetter({ electronic: { ...professional, fallback: 'sms' } }),
      electronicLetter({ electronic: { recipientKind: 'consumer', consent: { date: '2026-01-10', means: '' } } }),
      electronicLetter({ electronic: { recipientKind: 'consumer', consent: { date: '2026-01-10', means: 'x'.repeat(501) } } }),
      electronicLetter({ electronic: { recipientKind: 'consumer', consent: { date: '10/01/2026', means: 'form' } } }),
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    }
  });

  it('nothing is recorded or charged for a refused request', async () => {
    const before = await call('GET', '/v1/mailings?limit=100', { key: account.liveKey });
    const res = await post(electronicLetter({ mode: 'simple' }), account.liveKey);
    expect(res.status).to.equal(422);
    const after = await call('GET', '/v1/mailings?limit=100', { key: account.liveKey });
    expect(after.body.data.length).to.equal(before.body.data.length);
  });
});

describe('electronic mailings: the sandbox (advance, with production webhooks and proofs)', function () {
  this.timeout(90_000);
  let account: TestAccount;
  let receiver: WebhookReceiver;
  let onlyElectronic: WebhookReceiver;

  before(async () => {
    account = await createAccount({ balanceCents: 5000 });
    receiver = await new WebhookReceiver().start();
    onlyElectronic = await new WebhookReceiver().start();
    // One endpoint subscribed to every event (an empty list), one naming two of the new ones.
    await createWebhookEndpoint(stack().db, stack().config, { accountId: account.id, url: receiver.url, env: 'test', events: [] });
    await createWebhookEndpoint(stack().db, stack().config, {
      accountId: account.id,
      url: onlyElectronic.url,
      env: 'test',
      events: ['mailing.refused', 'mailing.proof_available'],
    });
  });
  after(async () => {
    await receiver.stop();
    await onlyElectronic.stop();
  });

  const create = async (mode: 'registered' | 'ar', fallback: 'none' | 'paper') => {
    const res = await call('POST', '/v1/mailings', {
      key: account.testKey,
      body: {
        mode,
        letter: freeLetter,
        sender,
        recipient,
        recipientEmail: 'mairie@example.org',
        channel: 'electronic',
        electronic: { recipientKind: 'professional', fallback },
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string };
  };
  const advance = (id: string, body: unknown) => call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body });
  const typesOf = (hooks: ReceivedWebhook[], id: string) =>
    hooks.filter((w) => w.body.data.mailing?.id === id).map((w) => (w.body.data.proof ? `${w.body.type}:${w.body.data.proof.kind}` : w.body.type));

  it('{} to accepted: mailing.sent, .notified, .accepted and the deposit and acceptance proofs, served by the proof links', async () => {
    const { id } = await create('ar', 'none');
    expect((await advance(id, {})).body).to.include({ status: 'sent', step: 1 });
    expect((await advance(id, {})).body).to.include({ status: 'notified', step: 2 });
    const accepted = await advance(id, {});
    expect(accepted.body).to.include({ status: 'accepted', step: 3, lastStep: 3, statusLabel: 'Acceptée par le destinataire' });
    expect(accepted.body.proofs.map((p: { kind: string }) => p.kind)).to.deep.equal(['deposit', 'acceptance']);
    const hooks = await receiver.until((r) => typesOf(r, id).includes('mailing.proof_available:acceptance'));
    expect(typesOf(hooks, id).sort()).to.deep.equal(
      [
        'mailing.created',
        'mailing.sent',
        'mailing.proof_available:deposit',
        'mailing.notified',
        'mailing.accepted',
        'mailing.proof_available:acceptance',
      ].sort(),
    );
    for (const kind of ['deposit', 'acceptance']) {
      const link = await call('GET', `/v1/mailings/${id}/proofs/${kind}`, { key: account.testKey });
      expect(link.status, JSON.stringify(link.body)).to.equal(200);
      const pdf = await fetch(link.body.url);
      expect(pdf.headers.get('content-type')).to.equal('application/pdf');
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(link.body.sha256).to.equal(createHash('sha256').update(bytes).digest('hex'));
    }
    // Final: advancing again is 409.
    expect((await advance(id, {})).status).to.equal(409);
  });

  it('{ status: "refused" } with fallback paper goes on by post: lastStep 7, the paper steps, both paths\' proofs; the named endpoint hears only what it chose', async () => {
    const { id } = await create('registered', 'paper');
    const refused = await advance(id, { status: 'refused' });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(200);
    expect(refused.body).to.include({ status: 'refused', step: 3, lastStep: 7 });
    expect(refused.body.electronic).to.include({ fallback: 'paper', fallbackUsed: true });
    expect((await advance(id, { status: 'accepted' })).status).to.equal(409);
    expect((await advance(id, {})).body).to.include({ status: 'printed', step: 4 });
    const delivered = await advance(id, { step: 7 });
    expect(delivered.body).to.include({ status: 'delivered', step: 7, lastStep: 7 });
    expect(delivered.body.events.map((e: { step: number; status: string }) => `${e.step}:${e.status}`)).to.deep.equal([
      '0:paid',
      '3:refused',
      '4:printed',
      '5:posted',
      '6:in_transit',
      '7:delivered',
    ]);
    expect(delivered.body.proofs.map((p: { kind: string }) => p.kind)).to.deep.equal(['refusal', 'filing', 'delivery']);
    const hooks = await receiver.until((r) => typesOf(r, id).includes('mailing.proof_available:delivery'));
    expect(typesOf(hooks, id)).to.include.members(['mailing.refused', 'mailing.printed', 'mailing.posted', 'mailing.delivered']);
    const chosen = await onlyElectronic.until((r) => typesOf(r, id).includes('mailing.proof_available:delivery'));
    expect([...new Set(typesOf(chosen, id).map((t) => t.split(':')[0]))].sort()).to.deep.equal(['mailing.proof_available', 'mailing.refused']);
    const read = await call('GET', `/v1/mailings/${id}`, { key: account.testKey });
    expect(read.body).to.include({ status: 'delivered', lastStep: 7 });
  });

  it('unclaimed and bounced without a fallback are final at step 3; error is too; returned is refused on the electronic path', async () => {
    const unclaimed = await create('ar', 'none');
    await advance(unclaimed.id, { step: 2 });
    expect((await advance(unclaimed.id, { status: 'returned' })).status).to.equal(409);
    expect((await advance(unclaimed.id, { status: 'unclaimed' })).body).to.include({ status: 'unclaimed', step: 3, lastStep: 3 });
    expect((await advance(unclaimed.id, {})).status).to.equal(409);
    const bounced = await create('registered', 'none');
    expect((await advance(bounced.id, { step: 4 })).status).to.equal(422);
    expect((await advance(bounced.id, { status: 'bounced' })).body).to.include({ status: 'bounced', step: 3 });
    const failed = await create('registered', 'paper');
    expect((await advance(failed.id, { status: 'error' })).body).to.include({ status: 'error', step: 3, lastStep: 3 });
  });
});
