import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { balanceOf, call, createAccount, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { companyDirectory, geocoder } from '../support/partner-server.js';
import { boxLetterValues, freeLetter, recipient, sender } from '../support/fixtures.js';
import { readPdf } from '../support/pdf.js';
import { letterPdf } from '../../workflows/letters.js';
import { ADDRESS_SCORE_THRESHOLD } from '../../domain/mailings/address-check.js';

/**
 * Issue 28, parts 3 and 4: a recipient by SIRET (the directory's registered address) and the
 * recipient's street and number checked against the national address base (the geocoder), both
 * answered by the partners' replays (test/fixtures/partners/).
 */
describe('mailings: recipient by SIRET and the address check', function () {
  this.timeout(60_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount({ balanceCents: 10_000 });
    // The partner cache is the suite's: another file may have looked these SIRETs and streets up
    // already (the breaker's test does), and these tests count the partners' requests.
    await stack().db('partner_cache').where('key', 'like', 'company:%').orWhere('key', 'like', 'address-match:%').delete();
  });
  afterEach(() => {
    geocoder.reset();
    companyDirectory.reset();
  });

  const post = (body: Record<string, unknown>, key = account.testKey) =>
    call('POST', '/v1/mailings', { key, body: { mode: 'simple', letter: freeLetter, sender, ...body } });
  /** The geocoder's address-check requests (autocomplete off) made since the last reset. */
  const checks = () => geocoder.requests.filter((r) => r.includes('autocomplete=0'));
  /** Each mailing of the account, as listed. */
  const mailingCount = async (key: string) => (await call('GET', '/v1/mailings?limit=100', { key })).body.data.length as number;

  describe('a recipient given by SIRET', () => {
    it("is the establishment's registered address from the directory, under the company's name, checked and printed in the norm's form", async () => {
      const res = await post({ recipient: { siret: '35600000000048' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.recipient).to.deep.equal(['LA POSTE', '9 Rue du Colonel Pierre Avia', '75015 PARIS']);
      expect(res.body.warnings).to.deep.equal([]);
      // The directory was asked for that SIRET, the base for its street.
      expect(companyDirectory.requests.some((r) => r.includes('q=35600000000048'))).to.equal(true);
      expect(checks().some((r) => r.includes('COLONEL'))).to.equal(true);
      const row = await stack().db('shipments').where({ id: res.body.id }).first('recipient', 'document');
      expect(row.recipient).to.include({ name: 'LA POSTE', postcode: '75015', city: 'PARIS' });
      expect(row.document.text).to.include('9 Rue du Colonel Pierre Avia').and.include('75015 PARIS');
    });

    it('prints the name given instead of the directory’s', async () => {
      const res = await post({ recipient: { siret: '35600000000048', name: 'Service Courrier' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.recipient).to.deep.equal(['Service Courrier', '9 Rue du Colonel Pierre Avia', '75015 PARIS']);
    });

    it('refuses a closed establishment and an unknown SIRET with a 422 naming it; nothing is created', async () => {
      const before = await mailingCount(account.testKey);
      const closed = await post({ recipient: { siret: '35600000012346' } });
      expect(closed.status, JSON.stringify(closed.body)).to.equal(422);
      expect(closed.body.error.code).to.equal('recipient_siret_closed');
      expect(closed.body.error.details).to.deep.equal({ field: 'recipient.siret', siret: '35600000012346' });
      expect(closed.body.error.message).to.contain('35600000012346').and.contain('closed');

      const unknown = await post({ recipient: { siret: '98765432400001' } });
      expect(unknown.status, JSON.stringify(unknown.body)).to.equal(422);
      expect(unknown.body.error.code).to.equal('recipient_siret_unknown');
      expect(unknown.body.error.details).to.deep.equal({ field: 'recipient.siret', siret: '98765432400001' });

      // A wrong control key cannot be an establishment: refused without asking the directory.
      companyDirectory.reset();
      const checksum = await post({ recipient: { siret: '12345678901234' } });
      expect(checksum.status).to.equal(422);
      expect(checksum.body.error.code).to.equal('recipient_siret_unknown');
      expect(companyDirectory.requests).to.deep.equal([]);

      // Not 14 digits: the request's shape is wrong.
      expect((await post({ recipient: { siret: '356000000' } })).status).to.equal(400);
      expect(await mailingCount(account.testKey)).to.equal(before);
    });

    it('a directory that keeps failing is a 502 and nothing is charged or created', async () => {
      const live = await createAccount({ balanceCents: 5000 });
      companyDirectory.failNext = 10;
      const res = await post({ recipient: { siret: '35600000000056' } }, live.liveKey);
      expect(res.status, JSON.stringify(res.body)).to.equal(502);
      expect(res.body.error.code).to.equal('upstream_error');
      expect(await balanceOf(live.id)).to.equal(5000);
      expect(await mailingCount(live.liveKey)).to.equal(0);
    });
  });

  describe('the address check (strict by default for accounts opened since it exists)', () => {
    it('refuses the right address under the wrong postcode with suggestions that, resent, are accepted', async () => {
      const sent = { ...recipient, postcode: '69002' };
      const refused = await post({ recipient: sent });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect(refused.body.error.code).to.equal('address_invalid');
      const { details } = refused.body.error;
      expect(details).to.include({ field: 'recipient.lines.0', threshold: ADDRESS_SCORE_THRESHOLD });
      expect(details.score).to.be.above(ADDRESS_SCORE_THRESHOLD);
      expect(details.suggestions[0]).to.deep.equal({
        name: 'Mairie de Lyon',
        lines: ['1 Place de la Comédie'],
        postcode: '69001',
        city: 'LYON',
        country: 'FR',
      });

      const resent = await post({ recipient: details.suggestions[0] });
      expect(resent.status, JSON.stringify(resent.body)).to.equal(201);
      expect(resent.body.recipient).to.deep.equal(['Mairie de Lyon', '1 Place de la Comédie', '69001 LYON']);
      expect(resent.body.warnings).to.deep.equal([]);
    });

    it('refuses a score below the threshold, suggesting what the base has', async () => {
      const refused = await post({ recipient: { ...recipient, lines: ['1 place de la Comdie'] } });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect(refused.body.error.code).to.equal('address_invalid');
      expect(refused.body.error.details.score).to.be.below(ADDRESS_SCORE_THRESHOLD);
      expect(refused.body.error.message).to.contain('1 Place de la Comédie 69001 Lyon').and.contain('lenient');
      // The base's candidates above the suggestion floor, best first; the commune alone is never one.
      expect(refused.body.error.details.suggestions.map((s: { lines: string[] }) => s.lines[0])).to.deep.equal([
        '1 Place de la Comédie',
        'Place de la Comédie',
        '1 Place Louis Pradel',
      ]);
      const resent = await post({ recipient: refused.body.error.details.suggestions[0] });
      expect(resent.status, JSON.stringify(resent.body)).to.equal(201);
    });

    it('keeps the other lines and checks the street line; a street the base does not have gets no suggestion', async () => {
      const withBuilding = await post({ recipient: { ...recipient, lines: ['Bâtiment B', '1 place de la Comédie'] } });
      expect(withBuilding.status, JSON.stringify(withBuilding.body)).to.equal(201);
      expect(withBuilding.body.recipient).to.deep.equal(['Mairie de Lyon', 'Bâtiment B', '1 Place de la Comédie', '69001 LYON']);

      const nowhere = await post({ recipient: { ...recipient, lines: ['7 rue Imaginaire'] } });
      expect(nowhere.status, JSON.stringify(nowhere.body)).to.equal(422);
      expect(nowhere.body.error.code).to.equal('address_invalid');
      expect(nowhere.body.error.details.suggestions).to.deep.equal([]);
    });

    it('lenient: an address the base does not confirm is posted as given, with an address_unverified warning', async () => {
      const res = await post({ recipient: { ...recipient, lines: ['7 rue Imaginaire'] }, options: { addressCheck: 'lenient' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.recipient).to.deep.equal(['Mairie de Lyon', '7 rue Imaginaire', '69001 LYON']);
      expect(res.body.warnings).to.have.length(1);
      expect(res.body.warnings[0]).to.include({ code: 'address_unverified', field: 'recipient.lines.0' });
      // The warning stays with the mailing.
      const got = await call('GET', `/v1/mailings/${res.body.id}`, { key: account.testKey });
      expect(got.body.warnings).to.deep.equal(res.body.warnings);
      expect((await post({ recipient, options: { addressCheck: 'sometimes' } })).status).to.equal(400);
    });

    it('an account opened before the check keeps posting what it posted (lenient unless a request says strict); the quote agrees', async () => {
      // As the migration leaves accounts that existed before it: their default is lenient.
      const older = await createAccount({ balanceCents: 10_000 });
      await stack().db('accounts').where({ id: older.id }).update({ address_check_default: 'lenient' });
      const unconfirmed = { ...recipient, lines: ['7 rue Imaginaire'] };
      const posted = await post({ recipient: unconfirmed }, older.testKey);
      expect(posted.status, JSON.stringify(posted.body)).to.equal(201);
      expect(posted.body.warnings.map((w: { code: string }) => w.code)).to.deep.equal(['address_unverified']);
      const strict = await post({ recipient: unconfirmed, options: { addressCheck: 'strict' } }, older.testKey);
      expect(strict.status, JSON.stringify(strict.body)).to.equal(422);
      expect(strict.body.error.code).to.equal('address_invalid');
      // A new account is strict by default, and the quote runs the same check as the creation.
      const quote = (key: string) => call('POST', '/v1/mailing-quotes', { key, body: { mode: 'simple', letter: freeLetter, sender, recipient: unconfirmed } });
      expect((await quote(account.testKey)).status).to.equal(422);
      expect((await quote(older.testKey)).status).to.equal(200);
    });

    it('the geocoder down never blocks sending: posted as given with address_check_unavailable, within seconds', async () => {
      geocoder.failNext = 10;
      const down = await post({ recipient: { ...recipient, lines: ['2 place de la Comédie'] } });
      expect(down.status, JSON.stringify(down.body)).to.equal(201);
      expect(down.body.recipient).to.deep.equal(['Mairie de Lyon', '2 place de la Comédie', '69001 LYON']);
      expect(down.body.warnings.map((w: { code: string }) => w.code)).to.deep.equal(['address_check_unavailable']);
      expect(checks().length).to.be.at.least(1);

      // Too slow is the same as down, and the mailing waits a few seconds at most.
      geocoder.reset();
      geocoder.delayMs = 5000;
      const startedAt = Date.now();
      const slow = await post({ recipient: { ...recipient, lines: ['3 place de la Comédie'] } });
      expect(slow.status, JSON.stringify(slow.body)).to.equal(201);
      expect(slow.body.warnings.map((w: { code: string }) => w.code)).to.deep.equal(['address_check_unavailable']);
      expect(Date.now() - startedAt).to.be.below(4500);
    });

    it('a confirmed address is asked of the geocoder once, then answered from the partner cache', async () => {
      const lines = ['Bâtiment C', '1 place de la Comédie'];
      expect((await post({ recipient: { ...recipient, lines } })).status).to.equal(201);
      geocoder.reset();
      const again = await post({ recipient: { ...recipient, lines } });
      expect(again.status).to.equal(201);
      expect(checks()).to.deep.equal([]);
    });

    it("a catalogue provider's reviewed address is not sent to the geocoder", async () => {
      const res = await post({ letter: { slug: 'resiliation-box-internet', provider: 'bouygues-telecom', fields: boxLetterValues }, recipient: undefined });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(checks()).to.deep.equal([]);
    });
  });

  it('prints the recipient in the NF Z10-011 form: at most 6 lines of 38 characters, the last in upper case', async () => {
    const res = await post({
      recipient: { name: 'Mairie de Lyon', lines: ['Service du courrier', '1 place de la   Comédie'], postcode: '69001', city: 'Lyon' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const expected = ['Mairie de Lyon', 'Service du courrier', '1 Place de la Comédie', '69001 LYON'];
    expect(res.body.recipient).to.deep.equal(expected);
    // The filing prints the stored layout (activities/mailings.ts, fileWithOperator): print it the same way.
    const { layout } = await stack().db('shipments').where({ id: res.body.id }).first('layout');
    const pdf = await stack().temporal.client.workflow.execute(letterPdf, {
      taskQueue: stack().config.taskQueue,
      workflowId: `address-pdf-${randomUUID()}`,
      args: [layout],
    });
    const { text } = await readPdf(pdf as Uint8Array);
    const lines = text.split(/\n|\f/).map((l) => l.trim());
    const at = lines.indexOf('Mairie de Lyon', lines.indexOf('Marie Dupont') + 1);
    expect(at, text).to.be.at.least(0);
    expect(lines.slice(at, at + 4)).to.deep.equal(expected);
    for (const line of expected) expect(line.length).to.be.at.most(38);
  });
});
