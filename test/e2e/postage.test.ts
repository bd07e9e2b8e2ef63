import { expect } from 'chai';
import type { Mailing } from '../../domain/mailings/mailing.js';
import { balanceOf, call, createAccount, startedMailingWorkflow, type TestAccount } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { base64, textPdf } from '../support/own-pdfs.js';
import { stack } from '../support/stack.js';
import { priceOf } from '../../domain/billing/prices.js';

/**
 * options.postage (issue 55) with the bundled simulator (live keys) and the sandbox (test keys):
 * the quote equals the debit for each speed, the mailing and its webhook payloads show it, and a
 * registered letter is refused it. Maileva's postage_type: test/e2e/maileva.test.ts.
 */
describe('options.postage: a simple letter’s speed, with the simulator and in the sandbox', function () {
  this.timeout(120_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount({ balanceCents: 10_000 });
  });

  const letter = (postage?: string, mode = 'simple', extra: Record<string, unknown> = {}) => ({
    mode,
    letter: freeLetter,
    sender,
    recipient,
    options: { ...(postage ? { postage } : {}), ...extra },
  });
  const post = (key: string, request: unknown) => call('POST', '/v1/mailings', { key, body: request });
  const quote = (key: string, request: unknown) => call('POST', '/v1/mailing-quotes', { key, body: request });
  const payloads = async (id: string) =>
    (await stack().db('webhook_events').where({ shipment_id: id }).orderBy('created_at').select('type', 'payload')) as {
      type: string;
      payload: { data: { mailing: Mailing } };
    }[];

  it('the quote equals the debit for each speed, and for an own PDF posted urgent; the default stays mailing.simple', async () => {
    const pdf = base64(await textPdf({ pages: 3 }));
    const cases: [unknown, string, number][] = [
      [letter(), 'mailing.simple', priceOf('mailing.simple')],
      [letter('fast'), 'mailing.simple', priceOf('mailing.simple')],
      [letter('economic'), 'mailing.simple.economic', priceOf('mailing.simple.economic')],
      [letter('urgent'), 'mailing.simple.urgent', priceOf('mailing.simple.urgent')],
      [
        { mode: 'simple', letter: { pdf, title: 'Mon courrier' }, sender, recipient, options: { postage: 'urgent' } },
        'mailing.simple.urgent',
        // The address sheet in front makes 4 sheets: 3 beyond the first.
        priceOf('mailing.simple.urgent') + 3 * priceOf('mailing.sheet'),
      ],
    ];
    for (const [request, unit, amountCents] of cases) {
      const priced = await quote(account.liveKey, request);
      expect(priced.status, priced.text).to.equal(200);
      expect(priced.body.amountCents, unit).to.equal(amountCents);
      expect(priced.body.lines[0].unit).to.equal(unit);
      const before = await balanceOf(account.id);
      const created = await post(account.liveKey, request);
      expect(created.status, created.text).to.equal(201);
      expect(created.body.amountCents).to.equal(amountCents);
      expect(before - (await balanceOf(account.id)), `debit of ${unit}`).to.equal(priced.body.amountCents);
    }
  });

  it('a live letter keeps its speed with the simulator: in the mailing, its GET and every webhook payload', async () => {
    const created = await post(account.liveKey, letter('economic'));
    expect(created.status, created.text).to.equal(201);
    const economic = { speed: 'economic', product: 'Ecopli', deliveryDays: 4 };
    expect(created.body.postage).to.deep.equal(economic);
    const id = created.body.id as string;
    const final = (await (await startedMailingWorkflow(id)).result()) as Mailing;
    expect(final.status).to.equal('posted');
    expect(final.postage).to.deep.equal(economic);
    const read = await call('GET', `/v1/mailings/${id}`, { key: account.liveKey });
    expect(read.body.postage).to.deep.equal(economic);
    const events = await payloads(id);
    expect(events.map((e) => e.type)).to.include.members(['mailing.created', 'mailing.printed', 'mailing.posted']);
    for (const event of events) expect(event.payload.data.mailing.postage, event.type).to.deep.equal(economic);
    // A letter asked without the option is posted at the default speed, and says so.
    const plain = await post(account.liveKey, letter());
    expect(plain.body.postage).to.deep.equal({ speed: 'fast', product: 'Lettre verte', deliveryDays: 3 });
  });

  it('a test letter keeps its speed in the sandbox along advance, free, quoted as live', async () => {
    const created = await post(account.testKey, letter('urgent'));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.amountCents).to.equal(0);
    const urgent = { speed: 'urgent', product: 'Lettre prioritaire', deliveryDays: 1 };
    expect(created.body.postage).to.deep.equal(urgent);
    const id = created.body.id as string;
    const advanced = await call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body: { step: 2 } });
    expect(advanced.status, advanced.text).to.equal(200);
    expect(advanced.body).to.include({ status: 'posted' });
    expect(advanced.body.postage).to.deep.equal(urgent);
    const priced = await quote(account.testKey, letter('urgent'));
    expect(priced.body.amountCents).to.equal(priceOf('mailing.simple.urgent'));
  });

  it('registered and AR letters have one speed: options.postage is a 422 option_not_available, nothing charged; without it they show null', async () => {
    const before = await balanceOf(account.id);
    for (const mode of ['registered', 'ar'])
      for (const send of [post, quote]) {
        const refused = await send(account.liveKey, letter('fast', mode));
        expect(refused.status, refused.text).to.equal(422);
        expect(refused.body.error.code).to.equal('option_not_available');
        expect(refused.body.error.details).to.deep.equal({ field: 'options.postage' });
      }
    expect(await balanceOf(account.id)).to.equal(before);
    const registered = await post(account.testKey, letter(undefined, 'registered'));
    expect(registered.status, registered.text).to.equal(201);
    expect(registered.body.postage).to.equal(null);
    const unknown = await post(account.liveKey, letter('express'));
    expect(unknown.status).to.equal(400);
  });
});
