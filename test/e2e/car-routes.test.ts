import { expect } from 'chai';
import { balanceOf, call, createAccount, exhaustFreeQuota, type TestAccount } from '../support/api.js';
import { geocoder, router } from '../support/partner-server.js';
import { stack } from '../support/stack.js';

describe('GET /v1/routes (geocoder and OSRM, replayed)', function () {
  this.timeout(60_000);
  let account: TestAccount;
  before(async () => {
    account = await createAccount({ balanceCents: 100 });
  });
  beforeEach(async () => {
    geocoder.reset();
    router.reset();
    await stack().db('partner_cache').delete();
  });
  const route = (query: string, key = account.testKey) => call('GET', `/v1/routes?${query}`, { key });

  it('geocodes addresses, then gives distance and duration by car', async () => {
    const res = await route('from=20%20avenue%20de%20S%C3%A9gur%20Paris&to=Lyon');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({
      from: { lon: 2.308132, lat: 48.850671, label: '20 Avenue de Ségur 75007 Paris' },
      to: { lon: 4.835, lat: 45.758, label: 'Lyon' },
      distanceMeters: 465312,
      distanceKm: 465.3,
      durationSeconds: 16826,
      durationMinutes: 280,
    });
    expect(router.requests[0]).to.match(/overview=false/);
  });

  it('accepts "lon,lat" and adds a simplified path with geometry=true', async () => {
    const res = await route('from=2.308132,48.850671&to=4.835,45.758&geometry=true');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(geocoder.requests).to.have.length(0);
    expect(res.body.geometry.type).to.equal('LineString');
    expect(res.body.geometry.coordinates[0]).to.deep.equal([2.308129, 48.850648]);
    expect(router.requests[0]).to.match(/overview=simplified/);
  });

  it('404 when there is no road route or an address is unknown; neither is billed', async () => {
    await exhaustFreeQuota(account.id);
    const before = await balanceOf(account.id);
    const island = await route('from=2.308132,48.850671&to=-5.1,48.46', account.liveKey);
    expect(island.status, JSON.stringify(island.body)).to.equal(404);
    expect(island.body.error.message).to.equal('No road route between these places.');
    const unknown = await route('from=zzzz%20introuvable&to=Lyon', account.liveKey);
    expect(unknown.status).to.equal(404);
    expect(await balanceOf(account.id)).to.equal(before);
  });

  it('502 when the routing service keeps failing; 400 for bad parameters', async () => {
    router.failNext = 10;
    expect((await route('from=2.308132,48.850671&to=4.835,45.758')).status).to.equal(502);
    expect((await route('from=ab&to=Lyon')).status).to.equal(400);
    expect((await route('from=Lyon&to=Paris&geometry=maybe')).status).to.equal(400);
    expect((await route('to=Paris')).status).to.equal(400);
  });
});
