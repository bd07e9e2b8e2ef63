import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { balanceOf, call, createAccount, eventually, type TestAccount } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';
import { PDFDocument } from 'pdf-lib';
import { LRE_SIMULATOR_PRODUCER, LreSimulator, type SimulatedOutcome } from '../../activities/lre/simulator.js';
import { priceOf } from '../../domain/billing/prices.js';
import { saveBillingProfile } from '../../domain/billing/profiles.js';
import { recordVerifiedSender } from '../support/senders.js';
import { parisDate } from '../../lib/paris-time.js';

/**
 * Live electronic mailings end to end with the bundled provider (LRE_PROVIDER=simulator, the
 * default): the API, the workflow, the provider's records, its proofs stored and served, the
 * paper fallback through the simulated postal operator, and the ledger of each outcome.
 */
describe('electronic mailings: live, with the simulated provider', function () {
  // Each test waits on the provider's polls (every 300 ms) through several moves: a loaded CI machine
  // stretches them, so each wait and each test has room.
  this.timeout(240_000);
  const START = 20_000;
  const held = priceOf('mailing.registered');
  let account: TestAccount;
  let simulator: LreSimulator;

  const profile = {
    legalName: 'Dupont Conseil SARL',
    addressLine1: '12 rue des Lilas',
    addressLine2: null,
    postalCode: '69003',
    city: 'Lyon',
    country: 'FR' as const,
    siret: null,
    vatNumber: null,
    email: 'contact@dupont-conseil.example',
  };

  /** An account whose sender identity the simulated provider verified. */
  async function verifiedAccount(balanceCents: number): Promise<TestAccount> {
    const created = await createAccount({ balanceCents });
    await saveBillingProfile(stack().db, created.id, profile);
    const from = await recordVerifiedSender(stack().db, created.id, 'simulator', { email: profile.email, firstName: 'Claire', lastName: 'Dupont' });
    await simulator.requestIdentityCheck(from);
    await eventually(
      () => simulator.ensureSender(from),
      (a) => a.identity === 'verified',
      5000,
      50,
    );
    return created;
  }

  before(async () => {
    simulator = new LreSimulator(stack().db, { stepDelayMs: stack().config.operatorStepDelayMs });
    account = await verifiedAccount(START);
  });

  const create = async (who: TestAccount, mode: 'registered' | 'ar', fallback: 'none' | 'paper', extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/v1/mailings', {
      key: who.liveKey,
      body: {
        mode,
        letter: freeLetter,
        sender,
        recipient,
        recipientEmail: 'mairie@example.org',
        channel: 'electronic',
        electronic: { recipientKind: 'professional', fallback },
        ...extra,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string; amountCents: number };
  };
  const read = async (who: TestAccount, id: string) => (await call('GET', `/v1/mailings/${id}`, { key: who.liveKey })).body;
  const until = (who: TestAccount, id: string, status: string, timeoutMs = 60_000) =>
    eventually(
      () => read(who, id),
      (m) => m.status === status,
      timeoutMs,
      // One read every 750 ms: the live key's 120 calls a minute must leave room for the test's other calls.
      750,
    ).then((m) => {
      expect(m.status, JSON.stringify(m)).to.equal(status);
      return m;
    });
  const ledgerOf = async (id: string) =>
    (await stack().db('ledger_entries').where({ reference: id }).orderBy('id').select('kind', 'unit', 'amount_cents')).map(
      (e: { kind: string; unit: string; amount_cents: number }) => `${e.kind} ${e.unit} ${e.amount_cents}`,
    );
  const proofsOf = async (id: string) =>
    (await stack().db('shipment_proofs').where({ shipment_id: id }).orderBy('created_at').select('kind')).map((p: { kind: string }) => p.kind);

  /** Ends the simulated letter as its recipient would, once the workflow has it notified. */
  async function recipientDecides(id: string, outcome: SimulatedOutcome): Promise<void> {
    await until(account, id, 'notified');
    await simulator.advance(id, outcome);
  }

  it('accepted: sent once, the provider reference shown, deposit and acceptance proofs stored once and served; the hold refunded', async () => {
    const before = await balanceOf(account.id);
    const { id, amountCents } = await create(account, 'registered', 'paper');
    expect(amountCents).to.equal(349 + held);
    expect(await balanceOf(account.id)).to.equal(before - 349 - held);
    await recipientDecides(id, 'accepted');
    const done = await until(account, id, 'accepted');
    expect(done).to.include({ step: 3, lastStep: 3 });
    expect(done.electronic.providerReference).to.match(/^SIM-LRE-[0-9A-F]{10}$/);
    expect(done.events.map((e: { status: string }) => e.status)).to.deep.equal(['paid', 'sent', 'notified', 'accepted']);
    await eventually(
      () => proofsOf(id),
      (p) => p.length === 2,
      10_000,
      100,
    );
    expect(await proofsOf(id)).to.deep.equal(['deposit', 'acceptance']);
    const mails = await stack().db('lre_simulator_mails').where({ mailing_id: id }).count<{ count: string }[]>('* as count');
    expect(Number(mails[0]!.count)).to.equal(1);
    for (const kind of ['deposit', 'acceptance']) {
      const link = await call('GET', `/v1/mailings/${id}/proofs/${kind}`, { key: account.liveKey });
      expect(link.status, JSON.stringify(link.body)).to.equal(200);
      const bytes = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
      expect(link.body.sha256).to.equal(createHash('sha256').update(bytes).digest('hex'));
      // The provider's own document, not one of ours.
      expect((await PDFDocument.load(bytes, { updateMetadata: false })).getProducer()).to.equal(LRE_SIMULATOR_PRODUCER);
    }
    await eventually(
      () => ledgerOf(id),
      (l) => l.length === 3,
      10_000,
      100,
    );
    expect(await ledgerOf(id)).to.deep.equal(['debit mailing.electronic -349', `debit mailing.fallback_hold -${held}`, `refund mailing.fallback_hold ${held}`]);
    expect(await balanceOf(account.id)).to.equal(before - 349);
  });

  it("refused with fallback paper: the same letter posted by the operator to delivered at step 7; both paths' proofs; the hold is the charge", async () => {
    const before = await balanceOf(account.id);
    const { id } = await create(account, 'registered', 'paper');
    await recipientDecides(id, 'refused');
    const done = await until(account, id, 'delivered', 60_000);
    expect(done).to.include({ step: 7, lastStep: 7 });
    expect(done.electronic).to.include({ fallbackUsed: true });
    expect(done.events.map((e: { step: number; status: string }) => `${e.step}:${e.status}`)).to.deep.equal([
      '0:paid',
      '1:sent',
      '2:notified',
      '3:refused',
      '4:printed',
      '5:posted',
      '6:in_transit',
      '7:delivered',
    ]);
    await eventually(
      () => proofsOf(id),
      (p) => p.length === 4,
      10_000,
      100,
    );
    expect(await proofsOf(id)).to.deep.equal(['deposit', 'refusal', 'filing', 'delivery']);
    expect(await ledgerOf(id)).to.deep.equal(['debit mailing.electronic -349', `debit mailing.fallback_hold -${held}`]);
    expect(await balanceOf(account.id)).to.equal(before - 349 - held);
    const filings = await stack().db('operator_filings').where({ shipment_id: id }).count<{ count: string }[]>('* as count');
    expect(Number(filings[0]!.count)).to.equal(1);
  });

  it('unclaimed without a fallback: final at step 3 with the negligence proof; only the electronic price charged', async () => {
    const { id } = await create(account, 'ar', 'none');
    await recipientDecides(id, 'unclaimed');
    expect(await until(account, id, 'unclaimed')).to.include({ step: 3, lastStep: 3 });
    await eventually(
      () => proofsOf(id),
      (p) => p.length === 2,
      10_000,
      100,
    );
    expect(await proofsOf(id)).to.deep.equal(['deposit', 'negligence']);
    expect(await ledgerOf(id)).to.deep.equal(['debit mailing.electronic -349']);
  });

  it('bounced with fallback paper (mode ar): posted, to ar_signed at step 8', async () => {
    const { id } = await create(account, 'ar', 'paper');
    await recipientDecides(id, 'bounced');
    expect(await until(account, id, 'ar_signed', 60_000)).to.include({ step: 8, lastStep: 8 });
    expect(await ledgerOf(id)).to.deep.equal(['debit mailing.electronic -349', `debit mailing.fallback_hold -${priceOf('mailing.ar')}`]);
  });

  it('422 sender_identity_unverified for a live letter of an account whose sender identity is not verified, nothing recorded or charged; its test letters go', async () => {
    const unverified = await createAccount({ balanceCents: START });
    await saveBillingProfile(stack().db, unverified.id, profile);
    const body = {
      mode: 'registered',
      letter: freeLetter,
      sender,
      recipient,
      recipientEmail: 'mairie@example.org',
      channel: 'electronic',
      electronic: { recipientKind: 'professional', fallback: 'paper' },
    };
    const refused = await call('POST', '/v1/mailings', { key: unverified.liveKey, body });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
    expect(refused.body.error).to.include({ code: 'sender_identity_unverified' });
    expect(refused.body.error.details).to.deep.equal({ identity: 'unverified' });
    const batch = await call('POST', '/v1/mailing-batches', {
      key: unverified.liveKey,
      body: { ...body, recipient: undefined, recipientEmail: undefined, rows: [{ recipient, recipientEmail: 'mairie@example.org' }] },
    });
    expect(batch.status, JSON.stringify(batch.body)).to.equal(422);
    expect(batch.body.error.code).to.equal('sender_identity_unverified');
    expect(await balanceOf(unverified.id)).to.equal(START);
    expect(await stack().db('shipments').where({ account_id: unverified.id }).count<{ count: string }[]>('* as count')).to.deep.equal([{ count: '0' }]);
    expect((await call('POST', '/v1/mailings', { key: unverified.testKey, body })).status).to.equal(201);
  });

  it('a sender the provider does not know as verified (our record says verified): the provider refuses, the mailing ends in error, both debits refunded once', async () => {
    const unverified = await createAccount({ balanceCents: START });
    await saveBillingProfile(stack().db, unverified.id, profile);
    await recordVerifiedSender(stack().db, unverified.id, 'simulator', { email: 'autre@dupont-conseil.example', firstName: 'Luc', lastName: 'Dupont' });
    const { id } = await create(unverified, 'registered', 'paper');
    expect(await until(unverified, id, 'error')).to.include({ step: 3 });
    await eventually(
      () => ledgerOf(id),
      (l) => l.length === 4,
      10_000,
      100,
    );
    expect(await ledgerOf(id)).to.deep.equal([
      'debit mailing.electronic -349',
      `debit mailing.fallback_hold -${held}`,
      'refund mailing.electronic 349',
      `refund mailing.fallback_hold ${held}`,
    ]);
    expect(await balanceOf(unverified.id)).to.equal(START);
  });

  it('canceled while paid (waiting for its send date): both debits refunded once, nothing sent', async () => {
    const tomorrow = parisDate(Date.now() + 86_400_000);
    const { id } = await create(account, 'registered', 'paper', { sendAt: tomorrow });
    const canceled = await call('POST', `/v1/mailings/${id}/cancel`, { key: account.liveKey });
    expect(canceled.status, JSON.stringify(canceled.body)).to.equal(200);
    expect(canceled.body).to.include({ status: 'canceled', step: 3 });
    expect(await ledgerOf(id)).to.deep.equal([
      'debit mailing.electronic -349',
      `debit mailing.fallback_hold -${held}`,
      'refund mailing.electronic 349',
      `refund mailing.fallback_hold ${held}`,
    ]);
    expect(await stack().db('lre_simulator_mails').where({ mailing_id: id }).first()).to.equal(undefined);
  });

  it('402 when the balance does not cover the electronic price and its hold; nothing recorded', async () => {
    const poor = await verifiedAccount(349 + held - 1);
    const res = await call('POST', '/v1/mailings', {
      key: poor.liveKey,
      body: {
        mode: 'registered',
        letter: freeLetter,
        sender,
        recipient,
        recipientEmail: 'a@example.org',
        channel: 'electronic',
        electronic: { recipientKind: 'professional', fallback: 'paper' },
      },
    });
    expect(res.status).to.equal(402);
    expect(res.body.error.details).to.deep.equal({ requiredCents: 349 + held, balanceCents: 349 + held - 1 });
  });
});
