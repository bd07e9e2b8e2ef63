import { expect } from 'chai';
import { balanceOf, call, createAccount, exhaustFreeQuota, type TestAccount } from './support/api.js';

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
