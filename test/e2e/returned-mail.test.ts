import { expect } from 'chai';
import type { Mailing } from '../../domain/mailings/mailing.js';
import { balanceOf, call, createAccount, startedMailingWorkflow, type TestAccount } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';
import { priceOf } from '../../domain/billing/prices.js';

/**
 * options.returnedMail (issue 55) in the sandbox and with the simulator: priced (quote = debit,
 * with a speed too), shown on the mailing, a posted test letter returned by `advance` at step 3
 * with mailing.returned's reason and the return proof; refused for registered and AR letters.
 * Maileva's treat_undelivered_mail and N10: test/e2e/maileva.test.ts.
 */
describe('options.returnedMail: returned mail handled digitally, in the sandbox and with the simulator', function () {
  this.timeout(120_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount({ balanceCents: 10_000 });
  });

  const letter = (options: Record<string, unknown>, mode = 'simple') => ({ mode, letter: freeLetter, sender, recipient, options });
  const post = (key: string, request: unknown) => call('POST', '/v1/mailings', { key, body: request });
  const quote = (key: string, request: unknown) => call('POST', '/v1/mailing-quotes', { key, body: request });
  const advance = (id: string, body: unknown) => call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body });

  it('the quote equals the debit: mailing.returned_mail.digital on top of the letter, with a speed too', async () => {
    const cases: [Record<string, unknown>, string[], number][] = [
      [{ returnedMail: 'digital' }, ['mailing.simple', 'mailing.returned_mail.digital'], priceOf('mailing.simple') + priceOf('mailing.returned_mail.digital')],
      [{ returnedMail: 'sender' }, ['mailing.simple'], priceOf('mailing.simple')],
      [
        { returnedMail: 'digital', postage: 'economic' },
        ['mailing.simple.economic', 'mailing.returned_mail.digital'],
        priceOf('mailing.simple.economic') + priceOf('mailing.returned_mail.digital'),
      ],
    ];
    for (const [options, units, amountCents] of cases) {
      const priced = await quote(account.liveKey, letter(options));
      expect(priced.status, priced.text).to.equal(200);
      expect(priced.body.lines.map((l: { unit: string }) => l.unit)).to.deep.equal(units);
      expect(priced.body.amountCents).to.equal(amountCents);
      const before = await balanceOf(account.id);
      const created = await post(account.liveKey, letter(options));
      expect(created.status, created.text).to.equal(201);
      expect(before - (await balanceOf(account.id))).to.equal(amountCents);
    }
  });

  it('a posted test letter handled digitally is returned by advance: returned at step 3, its reason in mailing.returned, the return proof', async () => {
    const created = await post(account.testKey, letter({ returnedMail: 'digital' }));
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ returnedMail: 'digital', lastStep: 2 });
    const id = created.body.id as string;
    const early = await advance(id, { status: 'returned' });
    expect(early.status, 'not posted yet').to.equal(409);
    const posted = await advance(id, { step: 2 });
    expect(posted.status, posted.text).to.equal(200);
    expect(posted.body).to.include({ status: 'posted', step: 2 });
    const further = await advance(id, {});
    expect(further.status, 'only a return moves it now').to.equal(409);
    const returned = await advance(id, { status: 'returned' });
    expect(returned.status, returned.text).to.equal(200);
    expect(returned.body).to.include({ status: 'returned', step: 3, lastStep: 3 });
    const final = (await (await startedMailingWorkflow(id)).result()) as Mailing;
    expect(final).to.include({ status: 'returned', step: 3 });
    expect(final.proofs.map((p) => p.kind)).to.deep.equal(['filing', 'return']);
    const event = (await stack().db('webhook_events').where({ shipment_id: id, type: 'mailing.returned' }).first('payload')) as {
      payload: { data: { details?: { reason: string }; mailing: Mailing } };
    };
    expect(event.payload.data.details?.reason).to.include('N10');
    const proof = await call('GET', `/v1/mailings/${id}/proofs/return`, { key: account.testKey });
    expect(proof.status, proof.text).to.equal(200);
    const again = await advance(id, { status: 'returned' });
    expect(again.status).to.equal(409);
  });

  it('without the option a posted simple letter stays final (409), as before; the simulator posts a digital letter and keeps the option', async () => {
    const plain = await post(account.testKey, letter({}));
    expect(plain.body.returnedMail).to.equal('sender');
    await advance(plain.body.id as string, { step: 2 });
    expect((await advance(plain.body.id as string, { status: 'returned' })).status).to.equal(409);

    const live = await post(account.liveKey, letter({ returnedMail: 'digital' }));
    expect(live.status, live.text).to.equal(201);
    const id = live.body.id as string;
    let read: Mailing | undefined;
    for (let i = 0; i < 200 && read?.status !== 'posted'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      read = (await call('GET', `/v1/mailings/${id}`, { key: account.liveKey })).body as Mailing;
    }
    expect(read).to.include({ status: 'posted', step: 2, returnedMail: 'digital' });
  });

  it('registered and AR letters: options.returnedMail is a 422 option_not_available, nothing charged; they show null', async () => {
    const before = await balanceOf(account.id);
    for (const mode of ['registered', 'ar']) {
      const refused = await post(account.liveKey, letter({ returnedMail: 'digital' }, mode));
      expect(refused.status, refused.text).to.equal(422);
      expect(refused.body.error).to.include({ code: 'option_not_available' });
      expect(refused.body.error.details).to.deep.equal({ field: 'options.returnedMail' });
    }
    expect(await balanceOf(account.id)).to.equal(before);
    const registered = await post(account.testKey, letter({}, 'registered'));
    expect(registered.body.returnedMail).to.equal(null);
  });
});
