import { expect } from 'chai';
import { once } from 'node:events';
import type { Mailing } from '../../domain/mailings/mailing.js';
import { balanceOf, call, createAccount, IsolatedServices, startedMailingWorkflow, type TestAccount } from '../support/api.js';
import { admin } from '../support/admin.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import {
  MAILEVA_CLIENT_ID,
  MAILEVA_CLIENT_SECRET,
  MAILEVA_PASSWORD,
  MAILEVA_STAND_IN_PRICES,
  MAILEVA_USERNAME,
  MailevaStandIn,
} from '../support/maileva-server.js';
import { stack } from '../support/stack.js';
import { textPdf } from '../support/own-pdfs.js';
import { priceOf } from '../../domain/billing/prices.js';

/** An API and a worker on their own task queue, whose postal operator is Maileva at `standIn`. */
function mailevaServices(standIn: MailevaStandIn, taskQueue: string): IsolatedServices {
  return new IsolatedServices({
    TEMPORAL_TASK_QUEUE: taskQueue,
    POSTAL_OPERATOR: 'maileva',
    MAILEVA_API_URL: standIn.apiUrl,
    MAILEVA_AUTH_URL: standIn.authUrl,
    MAILEVA_CLIENT_ID,
    MAILEVA_CLIENT_SECRET,
    MAILEVA_USERNAME,
    MAILEVA_PASSWORD,
    // Maileva refuses a sending whose notification address is not a real one.
    MAIL_FROM: 'Service postal <operations@example.fr>',
    OPERATOR_POLL_INTERVAL: '200ms',
    LOG_LEVEL: 'error',
    TEMPORAL_LOG_LEVEL: 'ERROR',
  });
}

/**
 * POSTAL_OPERATOR=maileva end to end: our API and a worker, on their own task queue, against the
 * Maileva stand-in (test/support/maileva-server.ts), which checks every request and answer against
 * Maileva's published documents. The client, the filing, the tracking and the proofs are the
 * production code.
 */
describe('Maileva as the postal operator (POSTAL_OPERATOR=maileva, against the stand-in)', function () {
  this.timeout(180_000);
  const standIn = new MailevaStandIn({ stepDelayMs: 100 });
  let services: IsolatedServices;
  let account: TestAccount;

  before(async () => {
    await standIn.start();
    services = mailevaServices(standIn, 'maileva');
    await services.start();
    services.startWorker();
    account = await createAccount({ balanceCents: 100_000 });
  });
  after(async () => {
    await services?.stop();
    await standIn.stop();
  });
  afterEach(() => {
    // Whatever the test did, our client sent nothing the documents refuse, and the stand-in answered as they say.
    expect(standIn.refusals, 'requests refused by the documents').to.deep.equal([]);
    expect(standIn.violations, 'answers that drift from the documents').to.deep.equal([]);
  });

  const post = (mode: string, to = recipient) =>
    call('POST', '/v1/mailings', { key: account.liveKey, body: { mode, letter: freeLetter, sender, recipient: to }, baseUrl: services.api.url });

  async function finished(id: string): Promise<Mailing> {
    return (await (await startedMailingWorkflow(id)).result()) as Mailing;
  }

  const eventTypes = (id: string): Promise<string[]> =>
    stack().db('webhook_events').where({ shipment_id: id }).orderBy('created_at').pluck('type') as Promise<string[]>;

  const sendingsOf = (id: string) => standIn.sendings().filter((s) => s.customId === id);

  /** The proof as a client downloads it: the link of GET /v1/mailings/{id}/proofs/{kind}, then its file. */
  async function downloadProof(id: string, kind: string): Promise<Buffer> {
    const link = await call('GET', `/v1/mailings/${id}/proofs/${kind}`, { key: account.liveKey, baseUrl: services.api.url });
    expect(link.status, JSON.stringify(link.body)).to.equal(200);
    const response = await fetch(link.body.url as string);
    expect(response.status).to.equal(200);
    return Buffer.from(await response.arrayBuffer());
  }

  it('posts a letter of each mode to its final status, once, with every event, the postal number and the operator proofs', async () => {
    const created = await Promise.all(['simple', 'registered', 'ar'].map((mode) => post(mode)));
    for (const response of created) expect(response.status, JSON.stringify(response.body)).to.equal(201);
    const [simple, registered, ar] = created.map((response) => response.body.id as string) as [string, string, string];
    const results = await Promise.all([finished(simple), finished(registered), finished(ar)]);
    expect(results.map((r) => r.status)).to.deep.equal(['posted', 'delivered', 'ar_signed']);

    for (const id of [simple, registered, ar]) {
      const sendings = sendingsOf(id);
      expect(sendings, id).to.have.length(1);
      expect(sendings[0]!.submitCount).to.equal(1);
      expect(sendings[0]!.recipients).to.have.length(1);
      expect(sendings[0]!.documents).to.have.length(1);
    }
    expect(sendingsOf(simple)[0]!.api).to.equal('mail');
    expect(sendingsOf(ar)[0]!.options).to.include({ acknowledgement_of_receipt: true, acknowledgement_of_receipt_scanning: true });
    expect(sendingsOf(registered)[0]!.options).to.include({ acknowledgement_of_receipt: false, color_printing: false, duplex_printing: false });

    expect(await eventTypes(ar)).to.deep.equal([
      'mailing.created',
      'mailing.printed',
      'mailing.posted',
      'mailing.proof_available',
      'mailing.in_transit',
      'mailing.delivered',
      'mailing.ar_signed',
      'mailing.proof_available',
    ]);
    expect(await eventTypes(simple)).to.deep.equal(['mailing.created', 'mailing.printed', 'mailing.posted', 'mailing.proof_available']);

    // The postal registered number replaces ours once Maileva gives it; a simple letter keeps ours.
    const registeredNumber = sendingsOf(registered)[0]!.recipients[0]!.registeredNumber;
    expect(registeredNumber).to.be.a('string').and.not.equal('');
    expect(results[1]!.trackingNumber).to.equal(registeredNumber);
    expect(results[0]!.trackingNumber).to.match(/^SV\d{11}$/);

    // The filing proof of a registered letter and the delivery proof of an AR are Maileva's documents.
    const depositProof = (await downloadProof(registered, 'filing')).toString('latin1');
    expect(depositProof.startsWith('%PDF-')).to.equal(true);
    expect(depositProof).to.include(`Maileva deposit proof ${sendingsOf(registered)[0]!.id}`);
    const arScan = (await downloadProof(ar, 'delivery')).toString('latin1');
    expect(arScan.startsWith('%PDF-')).to.equal(true);
    expect(arScan).not.to.equal(depositProof);

    // What Maileva charges us, beside what we charged.
    const costs = await stack().db('shipments').whereIn('id', [simple, registered, ar]).select('id', 'operator', 'operator_postage_cents', 'amount_cents');
    const cost = (id: string) => costs.find((c) => c.id === id)!;
    expect(cost(registered)).to.include({ operator: 'maileva', operator_postage_cents: Math.round(MAILEVA_STAND_IN_PRICES.registered * 100) });
    expect(cost(ar).operator_postage_cents).to.equal(Math.round(MAILEVA_STAND_IN_PRICES.registeredWithAr * 100));
    // Operators read it with the admin CLI.
    const listed = await admin(['mailing', 'costs', '--id', registered]);
    expect(listed.code).to.equal(0);
    expect(listed.json.mailings).to.have.length(1);
    expect(listed.json.mailings[0]).to.include({
      id: registered,
      operator: 'maileva',
      operatorSendingId: sendingsOf(registered)[0]!.id,
      trackingNumber: registeredNumber,
      chargedCents: cost(registered).amount_cents,
      operatorPostageCents: Math.round(MAILEVA_STAND_IN_PRICES.registered * 100),
    });
  });

  it('a customer’s own PDF reaches Maileva after our address sheet, in colour and duplex as asked', async () => {
    const pdf = await textPdf({ pages: 3 });
    const created = await call('POST', '/v1/mailings', {
      key: account.liveKey,
      body: { mode: 'registered', letter: { pdf: Buffer.from(pdf).toString('base64') }, sender, recipient, options: { color: true, duplex: true } },
      baseUrl: services.api.url,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.id as string;
    expect((await finished(id)).status).to.equal('delivered');
    const [sending] = sendingsOf(id);
    expect(sending!.options).to.include({ color_printing: true, duplex_printing: true });
    // The address sheet, its blank back (duplex), then the 3 pages.
    expect(sending!.documents.map((d) => d.pagesCount)).to.deep.equal([5]);
  });

  it('the sandbox stays local: a test mailing never reaches Maileva, whatever POSTAL_OPERATOR says', async () => {
    const created = await call('POST', '/v1/mailings', {
      key: account.testKey,
      body: { mode: 'registered', letter: freeLetter, sender, recipient },
      baseUrl: services.api.url,
    });
    expect(created.status).to.equal(201);
    const id = created.body.id as string;
    await startedMailingWorkflow(id);
    const advanced = await call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body: { step: 4 }, baseUrl: services.api.url });
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    expect((await finished(id)).status).to.equal('delivered');
    expect(sendingsOf(id)).to.deep.equal([]);
    expect(standIn.calls.some((c) => c.path.includes(id))).to.equal(false);
    expect((await stack().db('shipments').where({ id }).first('operator')).operator).to.equal(null);
  });

  it('a recipient Maileva rejects ends the mailing in error, refunded, with its reason in mailing.error', async () => {
    standIn.rejectAddressesContaining('Service des rejets');
    const before = await balanceOf(account.id);
    const created = await post('registered', { ...recipient, name: 'Service des rejets' });
    expect(created.status).to.equal(201);
    const id = created.body.id as string;
    expect(await balanceOf(account.id)).to.be.below(before);
    expect((await finished(id)).status).to.equal('error');
    expect(await balanceOf(account.id)).to.equal(before);
    const ended = await stack().db('webhook_events').where({ shipment_id: id, type: 'mailing.error' }).first('payload');
    expect(ended.payload.data.details.reason, ended.payload.data.details.reason).to.match(/Maileva rejected the recipient/);
    expect(sendingsOf(id)[0]!.submitCount).to.equal(1);
  });

  it('options.postage reaches Maileva as postage_type (URGENT, ECONOMIC; FAST by default), which charges that postage; registered letters carry none', async () => {
    const body = (postage?: string, mode = 'simple') => ({
      mode,
      letter: freeLetter,
      sender,
      recipient,
      ...(postage ? { options: { postage } } : {}),
    });
    const send = (request: unknown) => call('POST', '/v1/mailings', { key: account.liveKey, body: request, baseUrl: services.api.url });
    const before = await balanceOf(account.id);
    const created = await Promise.all([send(body('urgent')), send(body('economic')), send(body()), send(body(undefined, 'registered'))]);
    for (const response of created) expect(response.status, JSON.stringify(response.body)).to.equal(201);
    const [urgent, economic, fast, registered] = created.map((response) => response.body.id as string) as [string, string, string, string];
    expect(created[0]!.body.postage).to.deep.equal({ speed: 'urgent', product: 'Lettre prioritaire', deliveryDays: 1 });
    expect(created[3]!.body.postage).to.equal(null);
    expect(before - (await balanceOf(account.id))).to.equal(
      priceOf('mailing.simple.urgent') + priceOf('mailing.simple.economic') + priceOf('mailing.simple') + priceOf('mailing.registered'),
    );
    const results = await Promise.all([finished(urgent), finished(economic), finished(fast), finished(registered)]);
    expect(results.map((r) => r.status)).to.deep.equal(['posted', 'posted', 'posted', 'delivered']);
    expect(results[1]!.postage).to.deep.equal({ speed: 'economic', product: 'Ecopli', deliveryDays: 4 });

    expect(sendingsOf(urgent)[0]!.options).to.include({ postage_type: 'URGENT' });
    expect(sendingsOf(economic)[0]!.options).to.include({ postage_type: 'ECONOMIC' });
    expect(sendingsOf(fast)[0]!.options).to.include({ postage_type: 'FAST' });
    expect(sendingsOf(registered)[0]!.options).to.not.have.property('postage_type');
    // What Maileva charges for each letter's postage, kept beside our price, follows the speed asked.
    const postage = async (id: string) =>
      ((await stack().db('shipments').where({ id }).first('operator_postage_cents')) as { operator_postage_cents: number | null }).operator_postage_cents;
    expect(await postage(urgent)).to.equal(Math.round(MAILEVA_STAND_IN_PRICES.mail.URGENT * 100));
    expect(await postage(economic)).to.equal(Math.round(MAILEVA_STAND_IN_PRICES.mail.ECONOMIC * 100));
    expect(await postage(fast)).to.equal(Math.round(MAILEVA_STAND_IN_PRICES.mail.FAST * 100));
  });

  it('options.returnedMail digital: Maileva handles the undeliverable letter (treat_undelivered_mail), reports N10, and it ends returned at step 3 with its reason and proof', async () => {
    standIn.returnToSender('Parti sans adresse');
    const send = (to: typeof recipient) =>
      call('POST', '/v1/mailings', {
        key: account.liveKey,
        body: { mode: 'simple', letter: freeLetter, sender, recipient: to, options: { returnedMail: 'digital' } },
        baseUrl: services.api.url,
      });
    const before = await balanceOf(account.id);
    const created = await send({ ...recipient, name: 'Parti sans adresse' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ returnedMail: 'digital', lastStep: 2 });
    expect(before - (await balanceOf(account.id))).to.equal(priceOf('mailing.simple') + priceOf('mailing.returned_mail.digital'));
    const id = created.body.id as string;
    const final = await finished(id);
    expect(final).to.include({ status: 'returned', step: 3, lastStep: 3 });
    expect(sendingsOf(id)[0]!.options).to.include({ treat_undelivered_mail: true });
    expect(sendingsOf(id)[0]!.options.notification_treat_undelivered_mail).to.deep.equal(['operations@example.fr']);
    expect(await eventTypes(id)).to.deep.equal([
      'mailing.created',
      'mailing.printed',
      'mailing.posted',
      'mailing.proof_available',
      'mailing.returned',
      'mailing.proof_available',
    ]);
    const returned = (await stack().db('webhook_events').where({ shipment_id: id, type: 'mailing.returned' }).first('payload')) as {
      payload: { data: { mailing: Mailing; details?: { reason: string } } };
    };
    expect(returned.payload.data.details?.reason).to.include('N10');
    expect(returned.payload.data.mailing).to.include({ status: 'returned', returnedMail: 'digital' });
    expect((await downloadProof(id, 'return')).toString('latin1').startsWith('%PDF-')).to.equal(true);

    // Without the option, a simple sending asks none, and a returned simple letter stays posted (it goes back to its sender).
    const plain = await post('simple', { ...recipient, name: 'Parti sans adresse' });
    const plainFinal = await finished(plain.body.id as string);
    expect(plainFinal).to.include({ status: 'posted', returnedMail: 'sender' });
    expect(sendingsOf(plain.body.id as string)[0]!.options).to.include({ treat_undelivered_mail: false });
  });

  it('a letter returned to sender ends returned, with its return proof', async () => {
    standIn.returnToSender('Destinataire parti');
    const created = await post('ar', { ...recipient, name: 'Destinataire parti' });
    const id = created.body.id as string;
    expect((await finished(id)).status).to.equal('returned');
    const types = await eventTypes(id);
    expect(types).to.include.members(['mailing.posted', 'mailing.returned']);
    expect((await downloadProof(id, 'return')).toString('latin1').startsWith('%PDF-')).to.equal(true);
  });

  it('with 20 % of calls answered 429 or 503, and tokens expiring mid-flight, every letter is posted exactly once', async function () {
    // A 429, or a failed read, is asked again within the attempt; a failed write waits for the
    // filing schedule (2 s, 4 s, 8 s…), which resumes where the attempt stopped.
    this.timeout(300_000);
    const flaky = new MailevaStandIn({ stepDelayMs: 100, faultRate: 0.2, seed: 7 });
    await flaky.start();
    const flakyServices = mailevaServices(flaky, 'maileva-flaky');
    try {
      await flakyServices.start();
      flakyServices.startWorker();
      // Every token expires while the letters are in flight: at the first submit, none has ended.
      flaky.expireTokensAtNextSubmit();
      const created = await Promise.all(
        ['registered', 'ar', 'simple'].map((mode) =>
          call('POST', '/v1/mailings', { key: account.liveKey, body: { mode, letter: freeLetter, sender, recipient }, baseUrl: flakyServices.api.url }),
        ),
      );
      const ids = created.map((response) => response.body.id as string);
      const results = await Promise.all(ids.map(finished));
      expect(results.map((r) => r.status)).to.deep.equal(['delivered', 'ar_signed', 'posted']);
      for (const id of ids) {
        const sendings = flaky.sendings().filter((s) => s.customId === id);
        expect(sendings, id).to.have.length(1);
        expect(sendings[0]!.submitCount, id).to.equal(1);
      }
      expect(flaky.calls.filter((c) => c.fault).length).to.be.above(0);
      expect(flaky.tokensIssued).to.be.above(1);
      expect(flaky.violations).to.deep.equal([]);
      expect(flaky.refusals).to.deep.equal([]);
    } finally {
      await flakyServices.stop();
      await flaky.stop();
    }
  });

  it('a worker killed while a letter is being filed: the next one finds the sending, submits once', async function () {
    // The killed worker's attempts are retried once their start-to-close timeout (1 min) has passed:
    // one letter held at each step, so that one kill (and one minute) covers both.
    this.timeout(240_000);
    const held: { step: 'documents' | 'submit'; id: string; release(): void }[] = [];
    for (const step of ['documents', 'submit'] as const) {
      const hold = standIn.holdNext(step);
      const created = await post('registered');
      await hold.reached;
      held.push({ step, id: created.body.id as string, release: hold.release });
    }
    const worker = services.worker!;
    worker.kill('SIGKILL');
    await once(worker, 'exit');
    for (const { release } of held) release();
    services.startWorker();
    for (const { step, id } of held) {
      expect((await finished(id)).status, step).to.equal('delivered');
      expect(sendingsOf(id), step).to.have.length(1);
      expect(sendingsOf(id)[0]!.submitCount, step).to.equal(1);
    }
  });
});
