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
import { setArchiveYears, setReturnEnvelope, type ReturnEnvelope } from '../../domain/access/postal-settings.js';
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

  /** Each event's type, with its proof's kind for `mailing.proof_available`. */
  const eventLabels = async (id: string): Promise<string[]> => {
    const rows = (await stack().db('webhook_events').where({ shipment_id: id }).orderBy('created_at').select('type', 'payload')) as {
      type: string;
      payload: { data: { proof?: { kind: string } } };
    }[];
    return rows.map((r) => (r.payload.data.proof ? `${r.type}:${r.payload.data.proof.kind}` : r.type));
  };

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

    // Every step in order; each proof after its step (after every step of the same report when
    // Maileva reported several at once: the moves-together patch, docs/workflow-versioning.md).
    const arEvents = await eventLabels(ar);
    expect(arEvents.filter((e) => !e.startsWith('mailing.proof_available'))).to.deep.equal([
      'mailing.created',
      'mailing.printed',
      'mailing.posted',
      'mailing.in_transit',
      'mailing.delivered',
      'mailing.ar_signed',
    ]);
    expect(arEvents.filter((e) => e.startsWith('mailing.proof_available'))).to.deep.equal([
      'mailing.proof_available:filing',
      'mailing.proof_available:delivery',
    ]);
    expect(arEvents.indexOf('mailing.proof_available:filing')).to.be.above(arEvents.indexOf('mailing.posted'));
    expect(arEvents.indexOf('mailing.proof_available:delivery')).to.be.above(arEvents.indexOf('mailing.ar_signed'));
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

  it('the return envelope, the archive and the envelope’s windows reach Maileva with its field names; the quote equals the debit', async () => {
    const envelope = { type: 'PREPAID_ENVELOPE', id: '6d1f7a52-0c3e-4b8f-9a27-5e4c1d2b3a90' };
    const configured = await createAccount({ balanceCents: 100_000 });
    await setReturnEnvelope(stack().db, configured.id, envelope as ReturnEnvelope);
    await setArchiveYears(stack().db, configured.id, { registered: 10 });
    const body = (mode: string, options: Record<string, unknown>) => ({ mode, letter: freeLetter, sender, recipient, options });
    const asked = [
      body('simple', { returnEnvelope: true, archiveYears: 6, envelopeWindows: 'double', printSenderAddress: true }),
      // The account's archive (10 years) applies to a registered letter that does not say.
      body('ar', { returnEnvelope: true }),
      // The included duration asked overrides the account's: no extra line.
      body('registered', { archiveYears: 3 }),
    ];
    const quotes = await Promise.all(asked.map((b) => call('POST', '/v1/mailing-quotes', { key: configured.liveKey, body: b, baseUrl: services.api.url })));
    const created = [];
    for (const [i, b] of asked.entries()) {
      const before = await balanceOf(configured.id);
      const response = await call('POST', '/v1/mailings', { key: configured.liveKey, body: b, baseUrl: services.api.url });
      expect(response.status, JSON.stringify(response.body)).to.equal(201);
      expect(response.body.amountCents, 'the quote equals the amount').to.equal(quotes[i]!.body.amountCents);
      expect(before - (await balanceOf(configured.id)), 'the quote equals the debit').to.equal(quotes[i]!.body.amountCents);
      created.push(response);
    }
    expect(quotes[0]!.body.lines.map((l: { unit: string; quantity: number }) => [l.unit, l.quantity])).to.deep.equal([
      ['mailing.simple', 1],
      ['mailing.return_envelope', 1],
      ['mailing.archive_year', 6],
    ]);
    expect(quotes[1]!.body.lines.map((l: { unit: string; quantity: number }) => [l.unit, l.quantity])).to.deep.equal([
      ['mailing.ar', 1],
      ['mailing.return_envelope', 1],
      ['mailing.archive_year', 7],
    ]);
    expect(quotes[2]!.body.lines).to.have.length(1);
    const ids = created.map((r) => r.body.id as string);
    await Promise.all(ids.map((id) => finished(id)));

    const [simple, ar, registered] = ids.map((id) => sendingsOf(id)[0]!.options);
    expect(simple).to.deep.include({ return_envelope: envelope, archiving_duration: 6, envelope_windows_type: 'DOUBLE', print_sender_address: true });
    expect(ar).to.deep.include({ return_envelope: envelope, archiving_duration: 10, acknowledgement_of_receipt: true });
    expect(ar).to.not.have.property('envelope_windows_type');
    expect(registered).to.not.have.property('return_envelope');
    expect(registered!.archiving_duration).to.equal(3);
    // The envelope Maileva chose (output only): a one-sheet letter with its return envelope goes in a DL, as operators read it.
    const costs = await admin(['mailing', 'costs', '--id', ids[0]!]);
    expect(costs.json.mailings[0]).to.include({ id: ids[0], operatorEnvelopeType: 'DL' });
    // A letter that asks nothing, of an account that configured nothing: none of these fields, Maileva's defaults.
    const plainId = (await post('simple')).body.id as string;
    await finished(plainId);
    const plain = sendingsOf(plainId)[0];
    expect(plain!.options).to.not.have.property('return_envelope');
    expect(plain!.options).to.include({ archiving_duration: 0, print_sender_address: false });
    expect(plain!.options).to.not.have.property('envelope_windows_type');

    // Refused before anything is charged: a mail v2 choice for a registered letter, an archive the mode has not, no envelope configured.
    const refused = async (b: object, key: string, code: string, field: string) => {
      const answer = await call('POST', '/v1/mailings', { key, body: b, baseUrl: services.api.url });
      expect([answer.status, answer.body.error.code, answer.body.error.details.field], JSON.stringify(answer.body)).to.deep.equal([422, code, field]);
    };
    await refused(body('registered', { envelopeWindows: 'simple' }), configured.liveKey, 'option_not_available', 'options.envelopeWindows');
    await refused(body('ar', { archiveYears: 1 }), configured.liveKey, 'option_not_available', 'options.archiveYears');
    await refused(body('simple', { returnEnvelope: true }), account.liveKey, 'return_envelope_not_configured', 'options.returnEnvelope');
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

  it('letters abroad and overseas reach Maileva with the country code of each API and line 6 in the destination’s order', async () => {
    const london = { name: 'Anna Smith', lines: ['10 Downing Street'], postcode: 'SW1A 1AA', city: 'London', country: 'GB' };
    const monaco = { name: 'Société des Bains de Mer', lines: ['Place du Casino'], postcode: '98000', city: 'Monaco', country: 'MC' };
    const noumea = { name: 'Mairie de Nouméa', lines: ['16 rue du Général Mangin'], postcode: '98800', city: 'Nouméa', country: 'FR' };
    const basseTerre = { name: 'Mairie de Basse-Terre', lines: ['Rue Lardenoy'], postcode: '97100', city: 'Basse-Terre', country: 'FR' };
    const cases: [string, Record<string, unknown>, string, string[], string][] = [
      ['simple', london, 'mail', ['Anna Smith', '10 Downing Street', '', '', '', 'LONDON SW1A 1AA'], 'GB'],
      ['ar', monaco, 'registered_mail', ['Société des Bains de Mer', 'Place du Casino', '', '', '', '98000 MONACO'], 'MC'],
      ['simple', noumea, 'mail', ['Mairie de Nouméa', '16 rue du Général Mangin', '', '', '', '98800 NOUMEA'], 'NC'],
      // The registered mail API lists no NC: FR with its French postcode, as before letters abroad.
      ['registered', noumea, 'registered_mail', ['Mairie de Nouméa', '16 rue du Général Mangin', '', '', '', '98800 NOUMEA'], 'FR'],
      ['registered', basseTerre, 'registered_mail', ['Mairie de Basse-Terre', 'Rue Lardenoy', '', '', '', '97100 BASSE TERRE'], 'GP'],
    ];
    const created = await Promise.all(
      cases.map(([mode, to]) =>
        call('POST', '/v1/mailings', {
          key: account.liveKey,
          body: { mode, letter: freeLetter, sender, recipient: to, options: { addressCheck: 'lenient' } },
          baseUrl: services.api.url,
        }),
      ),
    );
    for (const response of created) expect(response.status, JSON.stringify(response.body)).to.equal(201);
    const results = await Promise.all(created.map((response) => finished(response.body.id as string)));
    expect(results.map((r) => r.status)).to.deep.equal(['posted', 'ar_signed', 'posted', 'delivered', 'delivered']);
    cases.forEach(([mode, , api, lines, countryCode], i) => {
      const [sending] = sendingsOf(created[i]!.body.id as string);
      expect(sending!.api, mode).to.equal(api);
      expect(sending!.recipients[0]!.addressLines, mode).to.deep.equal(lines);
      expect(sending!.recipients[0]!.countryCode, `${mode} ${lines[5]}`).to.equal(countryCode);
      // The sender stays in France.
      expect(sending!.options.sender_country_code).to.equal('FR');
    });
    // Our own letter, in the PDF Maileva prints, ends the block with the country line.
    expect(results[0]!.recipient).to.deep.equal(['Anna Smith', '10 Downing Street', 'LONDON SW1A 1AA', 'ROYAUME UNI']);
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
    // The killed worker's attempts stop heartbeating: they are retried once the 20 s heartbeat
    // timeout has passed (not the attempt's minute). One letter held at each step, one kill for both.
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
