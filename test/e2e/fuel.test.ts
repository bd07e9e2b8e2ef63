import { expect } from 'chai';
import { balanceOf, call, createAccount, exhaustFreeQuota, type TestAccount } from '../support/api.js';
import { fuelData, geocoder } from '../support/partner-server.js';
import { fuelStations } from '../../activities/partners/prix-carburants.js';
import { stack } from '../support/stack.js';
import { secondsUntilNextParisDay } from '../../domain/lookups/lookup.js';

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

  it("gives national averages, and a department's with ?department=", async () => {
    const france = await call('GET', '/v1/fuel/prices', { key: account.testKey });
    expect(france.status, JSON.stringify(france.body)).to.equal(200);
    expect(france.body).to.deep.equal({
      unit: 'EUR/L',
      national: { stations: 9823, prices: { gazole: 1.671, sp95: 1.784, 'sp95-e10': 1.725, sp98: 1.812, e85: 0.859, gplc: 0.993 } },
    });
    const rhone = await call('GET', '/v1/fuel/prices?department=69', { key: account.testKey });
    expect(rhone.body.department).to.deep.equal({
      code: '69',
      stations: 212,
      prices: { gazole: 1.664, sp95: 1.776, 'sp95-e10': 1.719, sp98: 1.806, e85: 0.85, gplc: null },
    });
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

describe('GET /v1/fuel/stations (official fuel-price data, replayed)', function () {
  this.timeout(60_000);
  let account: TestAccount;
  const ids = (body: { stations: { id: string }[] }): string[] => body.stations.map((s) => s.id);
  before(async () => {
    account = await createAccount({ balanceCents: 1000 });
  });
  beforeEach(async () => {
    fuelData.reset();
    geocoder.reset();
    await stack().db('partner_cache').delete();
  });

  it('ranks the stations around a point cheapest first, equal prices nearest first', async () => {
    const res = await call('GET', '/v1/fuel/stations?lat=45.758&lon=4.835', { key: account.testKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ fuel: 'gazole', unit: 'EUR/L', sort: 'price', radiusKm: 10, widened: false, commune: null });
    // 69003002 and 69007003 both sell at 1.639: the one 0.7 km from the centre comes before the one at 1.3 km.
    expect(ids(res.body)).to.deep.equal(['69100012', '69008001', '69003002', '69007003', '69200007', '69009004']);
    expect(res.body.stations[0]).to.deep.equal({
      id: '69100012',
      address: '55 Cours Émile Zola',
      postcode: '69100',
      city: 'Villeurbanne',
      lat: 45.77,
      lon: 4.88,
      distanceKm: 3.7,
      priceEurPerLiter: 1.609,
      priceUpdatedAt: '2026-11-20T08:01:00.000Z',
    });
    const where = new URL(fuelData.requests[0]!, 'http://replay').searchParams.get('where');
    expect(where).to.equal("within_distance(geom, geom'POINT(4.835 45.758)', 10km) and gazole_prix is not null");
  });

  it('sorts by distance and cuts at limit', async () => {
    const res = await call('GET', '/v1/fuel/stations?lat=45.758&lon=4.835&sort=distance&limit=3', { key: account.testKey });
    expect(res.status).to.equal(200);
    expect(ids(res.body)).to.deep.equal(['69003002', '69007003', '69009004']);
    const distances = res.body.stations.map((s: { distanceKm: number }) => s.distanceKm);
    expect(distances).to.deep.equal([...distances].sort((a, b) => a - b));
  });

  it("gives a commune's stations around its centre, leaving out stations without a position", async () => {
    const res = await call('GET', '/v1/fuel/stations?insee=69123', { key: account.testKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.commune).to.deep.equal({ insee: '69123', name: 'Lyon' });
    expect(res.body.centre).to.deep.equal({ lat: 45.758, lon: 4.835, label: 'Lyon' });
    expect(res.body.widened).to.equal(false);
    expect(ids(res.body)).to.deep.equal(['69008001', '69003002', '69007003', '69009004']);
    expect(geocoder.requests[0]).to.include('type=municipality').and.to.include('citycode=69123');
  });

  it('widens around the given point when the commune has fewer than 3 stations, without repeating one', async () => {
    // 69290 is shared by four communes: only the station whose city is Craponne belongs to it.
    const res = await call('GET', '/v1/fuel/stations?insee=69069&lat=45.745&lon=4.725&sort=distance', { key: account.testKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.widened).to.equal(true);
    // ST GENIS LES OLLIERES (69290 too) is left out; the Craponne station found twice is listed once.
    expect(ids(res.body)).to.deep.equal(['69290001', '69290002', '69340001', '69160002']);
    expect(geocoder.requests).to.have.length(0);
  });

  it('widens around the commune centre when no point is given', async () => {
    const res = await call('GET', '/v1/fuel/stations?insee=69069', { key: account.testKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ widened: true });
    expect(res.body.centre).to.deep.equal({ lat: 45.745, lon: 4.725, label: 'Craponne' });
    expect(ids(res.body)[0]).to.equal('69340001');
  });

  it('refuses incomplete or out-of-range queries before anything is billed', async () => {
    await exhaustFreeQuota(account.id);
    const before = await balanceOf(account.id);
    for (const query of [
      '',
      'lat=45.7',
      'lon=4.8',
      'lat=91&lon=4.8',
      'lat=45&lon=181',
      'insee=6912',
      'insee=2C001',
      'insee=99999',
      'lat=45&lon=4&radiusKm=31',
      'lat=45&lon=4&radiusKm=0.5',
      'lat=45&lon=4&limit=51',
      'lat=45&lon=4&fuel=sp95',
      'lat=45&lon=4&sort=name',
    ]) {
      const res = await call('GET', `/v1/fuel/stations?${query}`, { key: account.liveKey });
      expect(res.status, query).to.equal(400);
      expect(res.body.error.code, query).to.equal('invalid_request');
    }
    expect(await balanceOf(account.id)).to.equal(before);
    expect(fuelData.requests).to.have.length(0);
  });

  it('bills one lookup beyond the free quota, caches for every process, and bills nothing when the source keeps failing', async () => {
    await exhaustFreeQuota(account.id);
    const before = await balanceOf(account.id);
    const first = await call('GET', '/v1/fuel/stations?lat=45.758&lon=4.835&fuel=gazole', { key: account.liveKey });
    expect(first.status).to.equal(200);
    expect(first.headers.get('x-service-balance')).to.equal(String(before - 1));
    await call('GET', '/v1/fuel/stations?lat=45.758&lon=4.835&sort=distance', { key: account.liveKey });
    expect(fuelData.requests).to.have.length(1);
    fuelData.failNext = 10;
    const failed = await call('GET', '/v1/fuel/stations?lat=45.7&lon=4.8', { key: account.liveKey });
    expect(failed.status).to.equal(502);
    expect(failed.body.error.code).to.equal('upstream_error');
    expect(await balanceOf(account.id)).to.equal(before - 2);
  });

  it('retries a malformed answer', async () => {
    fuelData.malformedNext = 1;
    const res = await call('GET', '/v1/fuel/stations?lat=45.758&lon=4.835', { key: account.testKey });
    expect(res.status).to.equal(200);
    expect(res.body.stations).to.have.length(6);
    expect(fuelData.requests).to.have.length(2);
  });

  it('pages through the records API until every station is read', async () => {
    const stations = await fuelStations(fuelData.baseUrl, 'gazole', { near: { lat: 45.758, lon: 4.835, radiusKm: 10 } }, 1000, 4);
    expect(stations.map((s) => s.id)).to.deep.equal(['69100012', '69008001', '69007003', '69003002', '69200007', '69009004']);
    expect(fuelData.requests.map((r) => new URL(r, 'http://x').searchParams.get('offset'))).to.deep.equal(['0', '4']);
  });
});
