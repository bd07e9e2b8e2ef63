import { expect } from 'chai';
import { balanceOf, call, createAccount, exhaustFreeQuota, type TestAccount } from '../support/api.js';
import { companyDirectory } from '../support/partner-server.js';
import { stack } from '../support/stack.js';

describe('companies (national business directory, replayed)', function () {
  this.timeout(60_000);
  let account: TestAccount;
  before(async () => {
    account = await createAccount({ balanceCents: 100 });
  });
  beforeEach(async () => {
    companyDirectory.reset();
    await stack().db('partner_cache').delete();
  });

  it('searches by name; status=active filters at the directory, status=all does not', async () => {
    const res = await call('GET', '/v1/companies?q=La%20Poste', { key: account.testKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.results[0]).to.deep.equal({
      siren: '356000000',
      name: 'LA POSTE',
      acronym: null,
      status: 'active',
      headOffice: { siret: '35600000000048', address: '9 RUE DU COLONEL PIERRE AVIA 75015 PARIS', postcode: '75015', city: 'PARIS' },
      activity: '53.10Z',
      establishments: 19856,
    });
    expect(companyDirectory.requests[0]).to.include('etat_administratif=A');
    await call('GET', '/v1/companies?q=La%20Poste&status=all', { key: account.testKey });
    expect(companyDirectory.requests[1]).not.to.include('etat_administratif');
  });

  it('gives the profile of an establishment by SIRET; 404 (not billed) for an unknown one', async () => {
    await exhaustFreeQuota(account.id);
    const before = await balanceOf(account.id);
    const res = await call('GET', '/v1/companies/35600000000048', { key: account.liveKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({
      siret: '35600000000048',
      activity: { code: '53.10Z' },
      headcount: { range: '53' },
      dataFreshness: '2026-11-19T05:42:10',
    });
    expect(res.body.establishment).to.include({ status: 'active', isHeadOffice: true, postcode: '75015' });
    expect(res.body.company).to.include({ siren: '356000000', name: 'LA POSTE', category: 'GE', legalForm: '5510' });
    expect(await balanceOf(account.id)).to.equal(before - 2);
    const unknown = await call('GET', '/v1/companies/12345678901234', { key: account.liveKey });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('not_found');
    expect(await balanceOf(account.id)).to.equal(before - 2);
  });

  it('validates the SIRET (14 digits), q (3-200), limit (1-10) and status', async () => {
    expect((await call('GET', '/v1/companies/3560000000004', { key: account.testKey })).status).to.equal(400);
    expect((await call('GET', '/v1/companies?q=ab', { key: account.testKey })).status).to.equal(400);
    expect((await call('GET', '/v1/companies?q=poste&limit=11', { key: account.testKey })).status).to.equal(400);
    expect((await call('GET', '/v1/companies?q=poste&status=closed', { key: account.testKey })).status).to.equal(400);
  });

  it('502 upstream_error when the directory keeps failing', async () => {
    companyDirectory.failNext = 10;
    const res = await call('GET', '/v1/companies/35600000000048', { key: account.testKey });
    expect(res.status).to.equal(502);
    expect(res.body.error.code).to.equal('upstream_error');
  });
});
