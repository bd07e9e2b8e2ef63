import { expect } from 'chai';
import { call, createAccount, type TestAccount } from '../support/api.js';
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
    expect(plain.body.electronic).to.deep.equal({ recipientKind: 'professional', consent: null, fallback: 'none', fallbackUsed: false, providerReference: null });
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
