import { expect } from 'chai';
import { balanceOf, call, createAccount, exhaustFreeQuota, type TestAccount } from '../support/api.js';
import { router } from '../support/partner-server.js';
import { stack } from '../support/stack.js';
import { addDays } from '../../domain/calculations/calculators.js';
import { parisDate } from '../../lib/paris-time.js';

describe('POST /v1/quotes/{slug}/estimate', function () {
  this.timeout(60_000);
  let account: TestAccount;
  const estimate = (slug: string, inputs: Record<string, unknown>, key = account.testKey) =>
    call('POST', `/v1/quotes/${slug}/estimate`, { key, body: { inputs } });
  const amounts = (body: { lineItems: { code: string; amountCents: number }[] }) => Object.fromEntries(body.lineItems.map((l) => [l.code, l.amountCents]));
  const moving = {
    from: '20 avenue de Ségur Paris',
    to: 'Lyon',
    movingDate: '2099-07-01',
    volumeM3: 30,
    formula: 'standard',
    floorFrom: 3,
    elevatorFrom: 'non',
    floorTo: 0,
    elevatorTo: 'oui',
  };
  before(async () => {
    account = await createAccount({ balanceCents: 1000 });
  });
  beforeEach(async () => {
    router.reset();
    await stack().db('partner_cache').delete();
  });

  it('prices a move on the road route: handling, truck, kilometres, stairs, high season', async () => {
    const res = await estimate('devis-demenagement', moving);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.route).to.deep.equal({ from: '20 Avenue de Ségur 75007 Paris', to: 'Lyon', distanceKm: 465.3, durationMinutes: 280 });
    expect(amounts(res.body)).to.deep.equal({ handling: 150_000, trucks: 15_000, transport: 74_448, stairsFrom: 27_000, highSeason: 26_645 });
    expect(res.body).to.include({
      currency: 'EUR',
      totalCents: 293_093,
      vatRate: 0.2,
      vatCents: 58_619,
      totalInclVatCents: 351_712,
      validUntil: addDays(parisDate(), 30),
    });
    expect(res.body.source.join(' ')).to.include('27 avril 2010');
    // Lines add up: what the client shows is what the total says.
    expect(res.body.lineItems.reduce((sum: number, l: { amountCents: number }) => sum + l.amountCents, 0)).to.equal(res.body.totalCents);
  });

  it('prices a bulk mailing from the service price table, with its volume discount and a default send date', async () => {
    const res = await estimate('devis-envoi-courriers-en-nombre', {
      letterCount: 250,
      pagesPerLetter: 3,
      printColor: 'couleur',
      duplex: 'recto-verso',
      postalMode: 'ar',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.route).to.equal(null);
    expect(amounts(res.body)).to.deep.equal({ letters: 199_750, extraSheets: 3_750, colour: 15_000, volumeDiscount: -10_925 });
    expect(res.body.totalCents).to.equal(207_575);
    expect(res.body.defaultsApplied).to.deep.equal([{ field: 'sendDate', value: addDays(parisDate(), 1), reason: 'not given: the next day (Europe/Paris)' }]);
    expect(router.requests).to.have.length(0);
  });

  it('prices a legal review with its urgency', async () => {
    const res = await estimate('devis-relecture-juridique', { documentType: 'contrat', pageCount: 5, deadline: addDays(parisDate(), 1) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(amounts(res.body)).to.deep.equal({ review: 25_000, extraPages: 16_000, urgency: 20_500 });
    const later = await estimate('devis-relecture-juridique', {
      documentType: 'contrat',
      pageCount: 5,
      deadline: addDays(parisDate(), 20),
      email: 'jean@example.fr',
    });
    expect(later.body.totalCents).to.equal(41_000);
  });

  it('404 for an unknown quote; 422 for invalid, missing, out-of-range or past inputs', async () => {
    expect((await estimate('devis-inconnu', {})).status).to.equal(404);
    const missing = await estimate('devis-demenagement', { from: 'Lyon' });
    expect(missing.status).to.equal(422);
    expect(missing.body.error.details.missingFields).to.deep.equal([
      'to',
      'movingDate',
      'volumeM3',
      'formula',
      'floorFrom',
      'elevatorFrom',
      'floorTo',
      'elevatorTo',
    ]);
    const cases: [string, Record<string, unknown>, string][] = [
      ['devis-demenagement', { ...moving, formula: 'luxe' }, 'formula'],
      ['devis-demenagement', { ...moving, volumeM3: 0 }, 'volumeM3'],
      ['devis-demenagement', { ...moving, movingDate: '2020-01-01' }, 'movingDate'],
      ['devis-demenagement', { ...moving, email: 'pas-un-email' }, 'email'],
      [
        'devis-envoi-courriers-en-nombre',
        { letterCount: 10, pagesPerLetter: 41, printColor: 'couleur', duplex: 'recto', postalMode: 'simple' },
        'pagesPerLetter',
      ],
      ['devis-relecture-juridique', { documentType: 'contrat', pageCount: 2, deadline: '2026-02-30' }, 'deadline'],
      ['devis-relecture-juridique', { documentType: 'contrat', pageCount: 2, deadline: '2099-01-01', surprise: 1 }, 'surprise'],
    ];
    for (const [slug, inputs, field] of cases) {
      const res = await estimate(slug, inputs);
      expect(res.status, field).to.equal(422);
      expect(res.body.error.code, field).to.equal('unprocessable');
      expect(res.body.error.details[0].field, field).to.equal(field);
    }
    expect((await call('POST', '/v1/quotes/devis-demenagement/estimate', { key: account.testKey, body: { inputs: [] } })).status).to.equal(400);
  });

  it('bills one calculation beyond the free quota; no route or a routing outage is a 422 that bills nothing', async () => {
    await exhaustFreeQuota(account.id);
    const before = await balanceOf(account.id);
    const paid = await estimate('devis-demenagement', moving, account.liveKey);
    expect(paid.status).to.equal(200);
    expect(await balanceOf(account.id)).to.equal(before - 1);
    const nowhere = await estimate('devis-demenagement', { ...moving, to: 'zzzz introuvable' }, account.liveKey);
    expect(nowhere.status).to.equal(422);
    expect(nowhere.body.error.details[0].field).to.equal('to');
    await stack().db('partner_cache').delete();
    router.failNext = 10;
    const outage = await estimate('devis-demenagement', { ...moving, to: 'Lyon' }, account.liveKey);
    // The failures not taken must not reach the next file's routes (the stand-in serves the whole process).
    router.reset();
    expect(outage.status, JSON.stringify(outage.body)).to.equal(422);
    expect(outage.body.error.details[0].message).to.match(/^route_unavailable/);
    expect(await balanceOf(account.id)).to.equal(before - 1);
  });
});
