import { expect } from 'chai';
import { balanceOf, call, createAccount, exhaustFreeQuota, type TestAccount } from '../support/api.js';

describe('GET /v1/geo/cities (official commune list)', () => {
  let account: TestAccount;
  before(async () => {
    account = await createAccount({ balanceCents: 10 });
  });
  const cities = (query: string, key = account.testKey) => call('GET', `/v1/geo/cities?${query}`, { key });

  it('returns every commune sharing a 5-digit postcode, labelled "<postcode> <city>"', async () => {
    const res = await cities('q=51300');
    expect(res.status).to.equal(200);
    expect(res.body.results.length).to.be.greaterThan(20);
    expect(res.body.results.every((r: { label: string; postcode: string }) => r.postcode === '51300' && r.label.startsWith('51300 '))).to.equal(true);
    const lyon = await cities('q=69003');
    expect(lyon.body.results).to.deep.equal([{ label: '69003 Lyon', postcode: '69003', city: 'Lyon', insee: '69123', department: '69' }]);
  });

  it('matches names by prefix, ignoring accents, case, hyphens and "St"', async () => {
    const evry = await cities('q=EVRY');
    expect(evry.body.results.map((r: { city: string }) => r.city)).to.include.members(['Évry', 'Évry-Courcouronnes']);
    const stDenis = await cities('q=st%20denis&limit=20');
    expect(stDenis.body.results.map((r: { label: string }) => r.label)).to.include('93200 Saint-Denis');
    expect((await cities('q=lyon&limit=3')).body.results.map((r: { label: string }) => r.label)).to.deep.equal(['69001 Lyon', '69002 Lyon', '69003 Lyon']);
    expect((await cities('q=zzzz')).body.results).to.deep.equal([]);
  });

  it('validates q (2-100) and limit (1-20)', async () => {
    expect((await cities('q=a')).status).to.equal(400);
    expect((await cities('q=lyon&limit=21')).status).to.equal(400);
    expect((await cities('limit=3')).status).to.equal(400);
  });

  it('counts against the free quota, then bills 1 cent (402 when the balance is empty)', async () => {
    await exhaustFreeQuota(account.id);
    const billed = await cities('q=lyon', account.liveKey);
    expect(billed.status).to.equal(200);
    expect(await balanceOf(account.id)).to.equal(9);
    const poor = await createAccount({ balanceCents: 0 });
    await exhaustFreeQuota(poor.id);
    expect((await cities('q=lyon', poor.liveKey)).status).to.equal(402);
  });
});

describe('GET /v1/geo/addresses (geocoder partner, replayed)', function () {
  this.timeout(60_000);
  let account: TestAccount;
  before(async () => {
    account = await createAccount({ balanceCents: 100 });
  });
  beforeEach(async () => {
    const { geocoder } = await import('../support/partner-server.js');
    geocoder.reset();
    const { stack } = await import('../support/stack.js');
    await stack().db('partner_cache').delete();
  });
  const addresses = (query: string, key = account.testKey) => call('GET', `/v1/geo/addresses?${query}`, { key });

  it('maps the geocoder answer to { results: [{ label, street, postcode, city, lat, lon }] }', async () => {
    const res = await addresses('q=20%20avenue%20de%20S%C3%A9gur%20Paris');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.results[0]).to.deep.equal({
      label: '20 Avenue de Ségur 75007 Paris',
      street: '20 Avenue de Ségur',
      postcode: '75007',
      city: 'Paris',
      lat: 48.850671,
      lon: 2.308132,
    });
    expect(res.body.results[1].street).to.equal('Avenue de Ségur');
    const town = await addresses('q=Lyon');
    expect(town.body.results[0]).to.include({ label: 'Lyon', street: 'Lyon', postcode: '69001' });
    expect((await addresses('q=zzzz%20introuvable')).body.results).to.deep.equal([]);
  });

  it('caches answers in Postgres: the second identical lookup does not reach the partner', async () => {
    const { geocoder } = await import('../support/partner-server.js');
    await addresses('q=Lyon&limit=3');
    await addresses('q=LYON&limit=3');
    expect(geocoder.requests).to.have.length(1);
    expect(geocoder.requests[0]).to.match(/^\/search\?q=Lyon&limit=3/);
  });

  it('retries a transient failure and answers', async () => {
    const { geocoder } = await import('../support/partner-server.js');
    geocoder.failNext = 1;
    const res = await addresses('q=Lyon');
    expect(res.status).to.equal(200);
    expect(geocoder.requests).to.have.length(2);
  });

  it('502 upstream_error when the partner keeps failing, times out or answers garbage; nothing billed', async () => {
    const { geocoder } = await import('../support/partner-server.js');
    await exhaustFreeQuota(account.id);
    const before = await balanceOf(account.id);
    for (const fault of ['fail', 'slow', 'malformed'] as const) {
      geocoder.reset();
      if (fault === 'fail') geocoder.failNext = 10;
      if (fault === 'slow') geocoder.delayMs = 1500;
      if (fault === 'malformed') geocoder.malformedNext = 10;
      const res = await addresses('q=Lyon', account.liveKey);
      expect(res.status, fault).to.equal(502);
      expect(res.body.error.code).to.equal('upstream_error');
      expect(geocoder.requests.length, fault).to.equal(3);
    }
    expect(await balanceOf(account.id)).to.equal(before);
    geocoder.reset();
    expect((await addresses('q=Lyon', account.liveKey)).status).to.equal(200);
    expect(await balanceOf(account.id)).to.equal(before - 1);
  });

  it('validates q (3-200) and limit (1-10)', async () => {
    expect((await addresses('q=ab')).status).to.equal(400);
    expect((await addresses('q=Lyon&limit=11')).status).to.equal(400);
  });
});
