import { expect } from 'chai';
import { balanceOf, call, createAccount, eventually, IsolatedServices, startedMailingWorkflow, type TestAccount } from '../support/api.js';
import { AR24_PRIVATE_KEY, AR24_TOKEN, Ar24StandIn } from '../support/ar24-server.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';
import { Ar24Provider } from '../../activities/lre/ar24.js';
import { Ar24Client } from '../../activities/partners/ar24.js';
import { priceOf } from '../../domain/billing/prices.js';
import { saveBillingProfile } from '../../domain/billing/profiles.js';
import { lreReference, rememberLreReference } from '../../domain/mailings/electronic-sending.js';
import { recordVerifiedSender } from '../support/senders.js';

/**
 * Live electronic mailings through AR24 (LRE_PROVIDER=ar24) against the local stand-in written from
 * AR24's published documents (test/support/ar24-server.ts, which checks the signature and the date
 * of every call): every outcome, AR24's callbacks (a hint, never trusted), a lost answer and a worker
 * killed while sending, and a fifth of the calls answered with maintenance or a 502: one AR24 mail
 * per mailing, each proof stored once, the ledger exact.
 */
describe('electronic mailings: live through AR24 (the stand-in)', function () {
  this.timeout(180_000);
  const ar24 = new Ar24StandIn();
  let services: IsolatedServices;
  let account: TestAccount;
  const held = priceOf('mailing.registered');

  const env = () => ({
    TEMPORAL_TASK_QUEUE: 'electronic-ar24',
    LRE_PROVIDER: 'ar24',
    AR24_API_URL: ar24.apiUrl,
    AR24_TOKEN,
    AR24_PRIVATE_KEY,
    LOG_LEVEL: 'warn',
    TEMPORAL_LOG_LEVEL: 'ERROR',
  });

  before(async () => {
    await ar24.start();
    services = await new IsolatedServices(env()).start();
    services.startWorker();
    account = await createAccount({ balanceCents: 50_000 });
    await saveBillingProfile(stack().db, account.id, {
      legalName: 'Gestion Martin SARL',
      addressLine1: '12 rue de la Paix',
      addressLine2: null,
      postalCode: '75002',
      city: 'Paris',
      country: 'FR',
      // AR24 asks a French professional sender for its SIRET.
      siret: '85234567800012',
      vatNumber: null,
      email: `martin-${account.id}@example.fr`,
    });
    // The sender's AR24 user, its identity verified (in production: the OTP key received by post).
    const db = stack().db;
    const provider = new Ar24Provider(new Ar24Client({ apiUrl: ar24.apiUrl, token: AR24_TOKEN, privateKey: AR24_PRIVATE_KEY, timeoutMs: 10_000 }), {
      reference: (id) => lreReference(db, id),
      remember: (id, ref) => rememberLreReference(db, id, ref),
    });
    const from = await recordVerifiedSender(db, account.id, 'ar24', { email: `martin-${account.id}@example.fr`, firstName: 'Paul', lastName: 'Martin' });
    await provider.requestIdentityCheck(from);
    ar24.verifyIdentity(from.email);
  });
  after(async () => {
    await services?.stop();
    await ar24.stop();
  });
  afterEach(() => ar24.clearFaults());

  const create = async (mode: 'registered' | 'ar', fallback: 'none' | 'paper'): Promise<string> => {
    const res = await call('POST', '/v1/mailings', {
      key: account.liveKey,
      baseUrl: services.api.url,
      body: {
        mode,
        letter: freeLetter,
        sender,
        recipient,
        recipientEmail: 'compta@client.example',
        channel: 'electronic',
        electronic: { recipientKind: 'professional', fallback },
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  const read = async (id: string) => (await call('GET', `/v1/mailings/${id}`, { key: account.liveKey })).body;
  const until = async (id: string, status: string, timeoutMs = 60_000) => {
    const m = await eventually(
      () => read(id),
      (s) => s.status === status,
      timeoutMs,
      // One read every 750 ms: the live key's 120 calls a minute must leave room for the test's other calls.
      750,
    );
    expect(m.status, JSON.stringify(m)).to.equal(status);
    return m;
  };
  /** The AR24 mail of a mailing, once AR24 holds it (exactly one). */
  const mailOf = async (id: string) => {
    await eventually(
      async () => ar24.mailsWithReference(id).length,
      (n) => n > 0,
      60_000,
      100,
    );
    const mails = ar24.mailsWithReference(id);
    expect(mails, 'one AR24 mail per mailing').to.have.length(1);
    return mails[0]!;
  };
  const proofsOf = async (id: string) =>
    (await stack().db('shipment_proofs').where({ shipment_id: id }).orderBy('created_at').select('kind')).map((p: { kind: string }) => p.kind);
  const ledgerOf = async (id: string) =>
    (await stack().db('ledger_entries').where({ reference: id }).orderBy('id').select('kind', 'unit', 'amount_cents')).map(
      (e: { kind: string; unit: string; amount_cents: number }) => `${e.kind} ${e.unit} ${e.amount_cents}`,
    );
  const callback = (body: string, type = 'application/x-www-form-urlencoded') =>
    fetch(`${services.api.url}/partners/ar24/callbacks`, { method: 'POST', headers: { 'content-type': type }, body });

  it('every outcome: accepted, refused with the paper fallback, unclaimed, bounced; one mail each, each proof once, the ledger exact', async () => {
    const accepted = await create('registered', 'paper');
    const refused = await create('registered', 'paper');
    const unclaimed = await create('ar', 'none');
    const bounced = await create('ar', 'none');
    for (const id of [accepted, refused, unclaimed, bounced]) await until(id, 'sent');
    for (const id of [accepted, refused, unclaimed]) await ar24.move((await mailOf(id)).id, 'ev');
    for (const id of [accepted, refused, unclaimed]) await until(id, 'notified');
    await ar24.move((await mailOf(accepted)).id, 'AR');
    await ar24.move((await mailOf(refused)).id, 'refused');
    await ar24.move((await mailOf(unclaimed)).id, 'negligence');
    await ar24.move((await mailOf(bounced)).id, 'bounced');

    const a = await until(accepted, 'accepted');
    expect(a.electronic.providerReference).to.equal(String((await mailOf(accepted)).id));
    const r = await until(refused, 'delivered', 90_000);
    expect(r).to.include({ step: 7, lastStep: 7 });
    await until(unclaimed, 'unclaimed');
    expect(await until(bounced, 'bounced')).to.include({ step: 3, lastStep: 3 });

    for (const [id, count] of [
      [refused, 4],
      [accepted, 2],
      [unclaimed, 2],
    ] as const)
      await eventually(
        () => proofsOf(id),
        (p) => p.length === count,
        20_000,
        100,
      );
    expect(await proofsOf(accepted)).to.deep.equal(['deposit', 'acceptance']);
    expect(await proofsOf(refused)).to.deep.equal(['deposit', 'refusal', 'filing', 'delivery']);
    expect(await proofsOf(unclaimed)).to.deep.equal(['deposit', 'negligence']);
    expect(await proofsOf(bounced)).to.deep.equal(['deposit']);
    // Each proof is AR24's own PDF, as it serves it.
    const stored = await stack().db('shipment_proofs').where({ shipment_id: accepted, kind: 'acceptance' }).first('pdf');
    expect(Buffer.compare(stored.pdf, (await mailOf(accepted)).proofs.ar!)).to.equal(0);

    expect(await ledgerOf(accepted)).to.deep.equal([
      'debit mailing.electronic -349',
      `debit mailing.fallback_hold -${held}`,
      `refund mailing.fallback_hold ${held}`,
    ]);
    expect(await ledgerOf(refused)).to.deep.equal(['debit mailing.electronic -349', `debit mailing.fallback_hold -${held}`]);
    expect(await ledgerOf(unclaimed)).to.deep.equal(['debit mailing.electronic -349']);
    expect(await ledgerOf(bounced)).to.deep.equal(['debit mailing.electronic -349']);
  });

  it("AR24's callback: a hint the workflow acts on at once; the status in its body is not trusted; 200 for a mail not ours", async () => {
    const id = await create('ar', 'none');
    await until(id, 'sent');
    const mail = await mailOf(id);
    // A callback claiming AR while AR24 says the letter is only deposited: nothing moves.
    expect((await callback(new URLSearchParams({ id_mail: String(mail.id), id_user: String(mail.userId), status: 'AR' }).toString())).status).to.equal(200);
    const handle = await startedMailingWorkflow(id);
    await eventually(
      async () => (await handle.fetchHistory()).events!.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'electronicHint').length,
      (n) => n === 1,
      10_000,
      100,
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect((await read(id)).status).to.equal('sent');
    // AR24 says so now: its callback (form-encoded, as it posts them), then JSON.
    await ar24.move(mail.id, 'ev');
    expect(await ar24.postCallback(`${services.api.url}/partners/ar24/callbacks`, mail.id)).to.equal(200);
    await until(id, 'notified');
    await ar24.move(mail.id, 'AR');
    expect((await callback(JSON.stringify({ id_mail: mail.id, id_user: mail.userId, status: 'AR' }), 'application/json')).status).to.equal(200);
    await until(id, 'accepted');
    // A mail that is none of ours, and a body that names none: 200 all the same.
    expect((await callback(new URLSearchParams({ id_mail: '999999', id_user: String(mail.userId), status: 'AR' }).toString())).status).to.equal(200);
    expect((await callback('nonsense')).status).to.equal(200);
  });

  it('a lost answer to the sending and a worker killed while sending: still one AR24 mail, the letter followed to its end', async () => {
    ar24.dropNextMailAnswer = true;
    const lost = await create('registered', 'none');
    await until(lost, 'sent');
    expect(ar24.calls.some((c) => c.route.endsWith(' /api/mail/') && c.answer === 'dropped')).to.equal(true);
    await mailOf(lost);

    // The worker dies while AR24 holds the sending's answer (the mail taken). The attempt's
    // heartbeats stop: past the 20 s heartbeat timeout (not the 2 minutes of the attempt) the
    // sending is retried by another worker, which finds the mail instead of sending a second.
    const hold = ar24.holdNextMail();
    const killed = await create('registered', 'none');
    await hold.reached;
    services.worker!.kill('SIGKILL');
    await new Promise((r) => services.worker!.once('exit', r));
    hold.release();
    services.startWorker();
    await until(killed, 'sent', 75_000);
    await ar24.move((await mailOf(killed)).id, 'ev');
    await ar24.move((await mailOf(killed)).id, 'AR');
    await until(killed, 'accepted', 90_000);
    expect(ar24.mailsWithReference(killed)).to.have.length(1);
    // The proof is published after the move that makes it available (mailing.proof_available says when).
    await eventually(
      () => proofsOf(killed),
      (p) => p.length === 2,
      30_000,
      100,
    );
    expect(await proofsOf(killed)).to.deep.equal(['deposit', 'acceptance']);
  });

  it('a fifth of the calls answered with maintenance or a 502: one mail per mailing, each proof once, the ledger exact', async function () {
    // A sending makes a few calls: at random, a run of attempts may each meet a fault, and the
    // attempts wait 2 s, 4 s, 8 s… between them (five failed in a row: a minute of waiting).
    this.timeout(600_000);
    const before = await balanceOf(account.id);
    ar24.faultRate = 0.2;
    const ids = await Promise.all(Array.from({ length: 4 }, (_, i) => create('registered', i % 2 ? 'paper' : 'none')));
    for (const id of ids) await until(id, 'sent', 300_000);
    for (const id of ids) await ar24.move((await mailOf(id)).id, 'ev');
    for (const id of ids) await ar24.move((await mailOf(id)).id, 'AR');
    for (const id of ids) await until(id, 'accepted', 90_000);
    for (const id of ids) {
      expect(ar24.mailsWithReference(id), id).to.have.length(1);
      await eventually(
        () => proofsOf(id),
        (p) => p.length === 2,
        30_000,
        100,
      );
      expect(await proofsOf(id)).to.deep.equal(['deposit', 'acceptance']);
    }
    expect(ar24.calls.some((c) => c.answer === 'maintenance') && ar24.calls.some((c) => c.answer === '502')).to.equal(true);
    const charged = 4 * 349;
    await eventually(
      () => balanceOf(account.id),
      (b) => b === before - charged,
      20_000,
      100,
    );
    expect(await balanceOf(account.id)).to.equal(before - charged);
    for (const [i, id] of ids.entries())
      expect(await ledgerOf(id)).to.deep.equal(
        i % 2
          ? ['debit mailing.electronic -349', `debit mailing.fallback_hold -${held}`, `refund mailing.fallback_hold ${held}`]
          : ['debit mailing.electronic -349'],
      );
  });
});
