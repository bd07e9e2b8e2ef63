import { expect } from 'chai';
import { call, createAccount, type TestAccount } from './support/api.js';
import { fuelData } from './support/partner-server.js';
import { stack } from './support/stack.js';
import { secondsUntilNextParisDay } from '../api/lookups/lookup.js';

describe('GET /v1/fuel/prices (official fuel-price data, replayed)', function () {
  this.timeout(60_000);
  let account: TestAccount;
  before(async () => {
    account = await createAccount();
  });
  beforeEach(async () => {
    fuelData.reset();
    await stack().db('partner_cache').delete();
  });

  it('gives national averages, and a department\'s with ?department=', async () => {
    const france = await call('GET', '/v1/fuel/prices', { key: account.testKey });
    expect(france.status, JSON.stringify(france.body)).to.equal(200);
    expect(france.body).to.deep.equal({ unit: 'EUR/L', national: { stations: 9823, prices: { gazole: 1.671, sp95: 1.784, 'sp95-e10': 1.725, sp98: 1.812, e85: 0.859, gplc: 0.993 } } });
    const rhone = await call('GET', '/v1/fuel/prices?department=69', { key: account.testKey });
    expect(rhone.body.department).to.deep.equal({ code: '69', stations: 212, prices: { gazole: 1.664, sp95: 1.776, 'sp95-e10': 1.719, sp98: 1.806, e85: 0.85, gplc: null } });
    expect(fuelData.requests.some((r) => decodeURIComponent(r).includes('code_departement="69"'))).to.equal(true);
  });

  it('caches until the next daily publication', async () => {
    await call('GET', '/v1/fuel/prices', { key: account.testKey });
    await call('GET', '/v1/fuel/prices', { key: account.testKey });
    expect(fuelData.requests).to.have.length(1);
    const seconds = secondsUntilNextParisDay(new Date('2026-11-21T22:00:00Z'));
    expect(seconds).to.equal(2 * 3600 + 300 - 3600); // 23:00 in Paris, next publication at 00:05
  });

  it('validates the department code; 502 when the source keeps failing', async () => {
    expect((await call('GET', '/v1/fuel/prices?department=6', { key: account.testKey })).status).to.equal(400);
    expect((await call('GET', '/v1/fuel/prices?department=2C', { key: account.testKey })).status).to.equal(400);
    fuelData.failNext = 10;
    expect((await call('GET', '/v1/fuel/prices?department=2A', { key: account.testKey })).status).to.equal(502);
  });
});
