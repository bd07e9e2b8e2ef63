import { expect } from 'chai';
import { addMonths, calculators, monthsBetween } from '../../domain/calculations/calculators.js';
import { catalogue } from '../../domain/catalogue/catalogue.js';

/** The worked examples of catalogue/calculators.json, with their expected figures. */
describe("calculator formulas, against the catalogue's worked examples", () => {
  const centsOf = (expected: Record<string, unknown>): Record<string, unknown> => {
    // Examples give some amounts in euros; the formulas answer in cents.
    const out: Record<string, unknown> = { ...expected };
    if (typeof expected.amountEur === 'number') out.amountCents = Math.round(expected.amountEur * 100);
    if (typeof expected.compensationEur === 'number') out.compensationCents = Math.round(expected.compensationEur * 100);
    return out;
  };

  for (const [slug, compute] of Object.entries(calculators)) {
    const entry = catalogue().calculators.get(slug);
    it(`${slug}: every worked example`, () => {
      expect(entry, slug).to.not.equal(undefined);
      expect(entry!.examples!.length).to.be.greaterThan(0);
      for (const example of entry!.examples!) {
        const inputs = { ...(example.inputs as Record<string, string | number>) };
        if (slug === 'indemnite-licenciement' && inputs.averageSalary3MonthsCents === undefined) delete inputs.averageSalary3MonthsCents;
        const result = compute(inputs);
        const expected = centsOf(example.expected as Record<string, unknown>);
        for (const [key, value] of Object.entries(expected)) {
          if (key in result) expect(result[key], `${slug} ${JSON.stringify(example.inputs)} ${key}`).to.deep.equal(value);
        }
        // At least the headline figure of each example is checked.
        expect(Object.keys(expected).filter((k) => k in result).length, `${slug}: compared keys`).to.be.greaterThan(0);
      }
    });
  }

  it('counts calendar months the way French law does', () => {
    expect(addMonths('2025-11-30', 3)).to.equal('2026-02-28');
    expect(addMonths('2027-11-30', 3)).to.equal('2028-02-29');
    expect(addMonths('2026-01-31', 1)).to.equal('2026-02-28');
    expect(monthsBetween('2020-07-01', '2026-01-01')).to.deep.equal({ months: 66, days: 0 });
    expect(monthsBetween('2025-06-01', '2026-01-15')).to.deep.equal({ months: 7, days: 14 });
  });

  it('has a formula for every calculator of the catalogue but the one needing a partner', () => {
    const needPartner = ['cout-trajet-voiture'];
    expect([...catalogue().calculators.keys()].filter((slug) => !(slug in calculators))).to.deep.equal(needPartner);
  });
});

describe('POST /v1/calculators/{slug}/compute', function () {
  this.timeout(60_000);
  let key: string;
  before(async () => {
    const { createAccount } = await import('../support/api.js');
    key = (await createAccount()).testKey;
  });
  const computeCall = async (slug: string, inputs: Record<string, unknown>) =>
    (await import('../support/api.js')).call('POST', `/v1/calculators/${slug}/compute`, { key, body: { inputs } });

  it('computes, completes defaults and says which', async () => {
    const res = await computeCall('indemnite-licenciement', {
      hireDate: '2014-01-01',
      notificationDate: '2025-11-01',
      noticeEndDate: '2026-01-01',
      averageSalary12MonthsCents: 200000,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.result).to.include({ indemnityCents: 633333, eligible: true, seniority: '12 ans' });
    expect(res.body.defaultsApplied).to.deep.equal([{ field: 'averageSalary3MonthsCents', value: 200000, reason: 'not given: the 12-month average is used' }]);
    expect(res.body.source.join(' ')).to.include('R1234-2');
  });

  it('assesses the right to severance pay when the dismissal letter is sent, and needs that date (issue 16)', async () => {
    const inputs = { hireDate: '2025-05-01', notificationDate: '2025-12-05', noticeEndDate: '2026-01-05', averageSalary12MonthsCents: 200000 };
    const res = await computeCall('indemnite-licenciement', inputs);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.result).to.include({ eligible: false, indemnityCents: 0, seniorityAtNotification: '7 mois et 4 jours' });
    const { notificationDate: _n, ...without } = inputs;
    const missing = await computeCall('indemnite-licenciement', without);
    expect(missing.status).to.equal(422);
    expect(missing.body.error.details.missingFields).to.deep.equal(['notificationDate']);
    const backwards = await computeCall('indemnite-licenciement', { ...inputs, notificationDate: '2026-02-01' });
    expect(backwards.status).to.equal(422);
    expect(backwards.body.error.details[0]).to.include({ field: 'noticeEndDate' });
  });

  it("prices a car trip with the road distance and the day's average fuel price", async () => {
    const { stack } = await import('../support/stack.js');
    await stack().db('partner_cache').delete();
    const res = await computeCall('cout-trajet-voiture', { from: '20 avenue de Ségur Paris', to: 'Lyon', fuel: 'gazole', consumption: 6.5 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.result).to.deep.equal({ distanceKm: 465.3, fuelPriceEurPerLiter: 1.671, liters: 30.245, costCents: 5054 });
    expect(res.body.defaultsApplied[0]).to.include({ field: 'distanceKm', value: 465.3 });
    const given = await computeCall('cout-trajet-voiture', { from: 'A', to: 'B', fuel: 'gazole', consumption: 6.5, distanceKm: 465 });
    expect(given.body.result).to.include({ distanceKm: 465, liters: 30.225 });
  });

  it('a partner outage is a 422 that names it (SPEC.md lists no 502 here), and bills nothing', async () => {
    const { stack } = await import('../support/stack.js');
    const { router, fuelData } = await import('../support/partner-server.js');
    const { createAccount, exhaustFreeQuota, balanceOf, call } = await import('../support/api.js');
    await stack().db('partner_cache').delete();
    const account = await createAccount({ balanceCents: 100 });
    await exhaustFreeQuota(account.id);
    const trip = (inputs: Record<string, unknown>) => call('POST', '/v1/calculators/cout-trajet-voiture/compute', { key: account.liveKey, body: { inputs } });
    router.failNext = 10;
    const noRoute = await trip({ from: '20 avenue de Ségur Paris', to: 'Lyon', fuel: 'gazole', consumption: 6.5 });
    router.reset();
    expect(noRoute.status, JSON.stringify(noRoute.body)).to.equal(422);
    expect(noRoute.body.error.details[0]).to.include({ field: 'distanceKm' });
    expect(noRoute.body.error.details[0].message).to.match(/^route_unavailable: /);
    fuelData.failNext = 10;
    const noPrice = await trip({ from: 'A', to: 'B', fuel: 'gazole', consumption: 6.5, distanceKm: 100 });
    fuelData.reset();
    expect(noPrice.status).to.equal(422);
    expect(noPrice.body.error.details[0].message).to.match(/^fuel_price_unavailable: /);
    expect(await balanceOf(account.id)).to.equal(100);
  });

  it('404 for an unknown calculator, 422 for missing or invalid inputs', async () => {
    expect((await computeCall('calcul-inconnu', {})).status).to.equal(404);
    const missing = await computeCall('indemnite-retard-train', { ticketPriceCents: 8000 });
    expect(missing.status).to.equal(422);
    expect(missing.body.error.details.missingFields).to.deep.equal(['arrivalDelayMinutes']);
    const invalid = await computeCall('date-fin-preavis', { noticeType: 'bail-vide-3-mois', receiptDate: '2025-02-30' });
    expect(invalid.status).to.equal(422);
    expect(invalid.body.error.details[0].field).to.equal('receiptDate');
  });
});
