import { expect } from 'chai';
import { balanceOf, call, createAccount, eventually, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { textPdf } from '../support/own-pdfs.js';
import { priceOf } from '../../domain/billing/prices.js';

/** A recipient in Berlin, in Germany's order, as a client sends it. */
const berlin = { name: 'Anna Schmidt', lines: ['Unter den Linden 5'], postcode: '10117', city: 'Berlin', country: 'DE' };
const tokyo = { name: 'Yamada Taro', lines: ['1-1 Chiyoda'], postcode: '100-0001', city: 'Chiyoda-ku, Tokyo', country: 'JP' };
const monaco = { name: 'Société des Bains de Mer', lines: ['Place du Casino'], postcode: '98000', city: 'Monaco', country: 'MC' };
const noumea = { name: 'Mairie de Nouméa', lines: ['16 rue du Général Mangin'], postcode: '98800', city: 'Nouméa', country: 'FR' };

/**
 * Letters abroad (issue 55, part 6) through the API, the bundled simulator operator (live keys on
 * the stack's worker) and the sandbox (test keys): the country's rules, the country line printed,
 * the modes each destination has, and the quote equal to the debit for each zone.
 */
describe('letters abroad (recipient.country)', function () {
  this.timeout(90_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount({ balanceCents: 10_000 });
  });

  const post = (key: string, body: Record<string, unknown>) => call('POST', '/v1/mailings', { key, body });
  const quote = (body: Record<string, unknown>) => call('POST', '/v1/mailing-quotes', { key: account.liveKey, body });

  it('a test mailing to Berlin: 201, the recipient printed in Germany’s order with the country line, moved by advance', async () => {
    const res = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient: berlin });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.recipient).to.deep.equal(['Anna Schmidt', 'Unter den Linden 5', '10117 BERLIN', 'ALLEMAGNE']);
    expect(res.body.warnings).to.deep.equal([]);
    const layout = (await stack().db('shipments').where({ id: res.body.id }).first('layout')).layout as { recipient: { text?: string }[] };
    expect(layout.recipient.map((s) => s.text ?? '').join('')).to.equal('Anna Schmidt\nUnter den Linden 5\n10117 BERLIN\nALLEMAGNE');
    const posted = await call('POST', `/v1/test/mailings/${res.body.id}/advance`, { key: account.testKey, body: { step: 2 } });
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    expect(posted.body).to.include({ status: 'posted', step: 2 });
  });

  it('addressCheck does not apply abroad: said by a warning when asked, no address base call', async () => {
    const res = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient: berlin, options: { addressCheck: 'strict' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.warnings.map((w: { code: string; field: string }) => [w.code, w.field])).to.deep.equal([
      ['address_check_not_applied', 'options.addressCheck'],
    ]);
  });

  it('refuses an unknown code, a sender abroad, an overseas code and a foreign postcode’s wrong form: 422 address_invalid naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ recipient: { ...berlin, country: 'XX' } }, 'recipient.country'],
      [{ sender: { ...berlin } }, 'sender.country'],
      [{ recipient: { ...noumea, country: 'NC' } }, 'recipient.country'],
      [{ recipient: { ...berlin, postcode: '1011' } }, 'recipient.postcode'],
      [{ recipient: { ...berlin, lines: ['a', 'b', 'c', 'd'] } }, 'recipient.lines'],
    ];
    for (const [change, field] of cases) {
      const res = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient: berlin, ...change });
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.error.code).to.equal('address_invalid');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal([field]);
    }
    const lowercase = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient: { ...berlin, country: 'de' } });
    expect(lowercase.status).to.equal(400);
  });

  it('registered and AR only where the registered mail goes: Berlin 422 destination_not_served, Monaco and Nouméa 201', async () => {
    for (const mode of ['registered', 'ar']) {
      const res = await post(account.testKey, { mode, letter: freeLetter, sender, recipient: berlin });
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.error).to.deep.include({ code: 'destination_not_served', details: { field: 'recipient.country', country: 'DE', mode } });
    }
    const toMonaco = await post(account.testKey, { mode: 'ar', letter: freeLetter, sender, recipient: monaco });
    expect(toMonaco.status, JSON.stringify(toMonaco.body)).to.equal(201);
    expect(toMonaco.body.recipient).to.deep.equal(['Société des Bains de Mer', 'Place du Casino', '98000 MONACO', 'MONACO']);
    const toNoumea = await post(account.testKey, { mode: 'registered', letter: freeLetter, sender, recipient: noumea, options: { addressCheck: 'lenient' } });
    expect(toNoumea.status, JSON.stringify(toNoumea.body)).to.equal(201);
    expect(toNoumea.body.recipient.at(-1)).to.equal('98800 NOUMEA');
  });

  it('the quote equals the debit for each zone: Europe, the world, Monaco, the overseas, France', async () => {
    const zones: [Record<string, unknown>, number][] = [
      [berlin, priceOf('mailing.simple') + priceOf('mailing.zone.europe')],
      [tokyo, priceOf('mailing.simple') + priceOf('mailing.zone.world')],
      [monaco, priceOf('mailing.simple')],
      [noumea, priceOf('mailing.simple')],
      [recipient, priceOf('mailing.simple')],
    ];
    for (const [to, expected] of zones) {
      const body = { mode: 'simple', letter: freeLetter, sender, recipient: to, options: { addressCheck: 'lenient' } };
      const priced = await quote(body);
      expect(priced.status, JSON.stringify(priced.body)).to.equal(200);
      expect(priced.body.amountCents, JSON.stringify(to)).to.equal(expected);
      const before = await balanceOf(account.id);
      const created = await post(account.liveKey, body);
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.amountCents).to.equal(priced.body.amountCents);
      expect(await balanceOf(account.id)).to.equal(before - priced.body.amountCents);
    }
    const lines = (await quote({ mode: 'simple', letter: freeLetter, sender, recipient: tokyo })).body.lines;
    expect(lines).to.deep.equal([
      { unit: 'mailing.simple', quantity: 1, amountCents: priceOf('mailing.simple') },
      { unit: 'mailing.zone.world', quantity: 1, amountCents: priceOf('mailing.zone.world') },
    ]);
  });

  it('an own PDF to Europe: sheets, colour and the zone in the quote and the debit alike', async () => {
    const pdf = Buffer.from(await textPdf({ pages: 2 })).toString('base64');
    const body = { mode: 'simple', letter: { pdf }, sender, recipient: berlin, options: { color: true } };
    const priced = await quote(body);
    expect(priced.status, JSON.stringify(priced.body)).to.equal(200);
    expect(priced.body.lines.map((l: { unit: string }) => l.unit)).to.deep.equal([
      'mailing.simple',
      'mailing.sheet',
      'mailing.sheet.color',
      'mailing.zone.europe',
    ]);
    const before = await balanceOf(account.id);
    const created = await post(account.liveKey, body);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.amountCents).to.equal(priced.body.amountCents);
    expect(await balanceOf(account.id)).to.equal(before - priced.body.amountCents);
  });

  it('a batch (dry run) prices each row by its zone, as a single quote does, and refuses a registered row abroad', async () => {
    const letter = { title: 'Information', body: 'Madame, Monsieur,' };
    const rows = [berlin, tokyo, recipient].map((to) => ({ recipient: to }));
    const batch = await call('POST', '/v1/mailing-batches', { key: account.liveKey, body: { mode: 'simple', letter, sender, rows, dryRun: true } });
    expect(batch.status, JSON.stringify(batch.body)).to.equal(200);
    const singles = await Promise.all(rows.map((row) => quote({ mode: 'simple', letter, sender, recipient: row.recipient })));
    expect(batch.body.rows.map((r: { amountCents: number }) => r.amountCents)).to.deep.equal(singles.map((q) => q.body.amountCents));
    expect(batch.body.amountCents).to.equal(singles.reduce((sum, q) => sum + (q.body.amountCents as number), 0));
    const registered = await call('POST', '/v1/mailing-batches', { key: account.liveKey, body: { mode: 'registered', letter, sender, rows, dryRun: true } });
    expect(registered.body.rows.map((r: { error: { code: string } | null }) => r.error?.code ?? null)).to.deep.equal([
      'destination_not_served',
      'destination_not_served',
      null,
    ]);
  });

  it('a live letter to Berlin is filed with the simulator, which prints the country line, and moves to posted', async () => {
    const created = await post(account.liveKey, { mode: 'simple', letter: freeLetter, sender, recipient: berlin });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const filing = await eventually(
      () => stack().db('operator_filings').where({ shipment_id: created.body.id }).first('recipient_lines', 'filed_at'),
      (row) => Boolean(row?.filed_at),
      60_000,
      200,
    );
    expect(filing.recipient_lines).to.deep.equal(['Anna Schmidt', 'Unter den Linden 5', '10117 BERLIN', 'ALLEMAGNE']);
    const done = await eventually(
      () => call('GET', `/v1/mailings/${created.body.id}`, { key: account.liveKey }),
      (res) => res.body.status === 'posted',
      60_000,
      200,
    );
    expect(done.body.status).to.equal('posted');
  });
});
