import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { call, createAccount, eventually, IsolatedServices, type ApiResponse, type TestAccount } from '../support/api.js';
import { freeLetter, sender } from '../support/fixtures.js';
import { companyDirectory, geocoder } from '../support/partner-server.js';
import { stack } from '../support/stack.js';
import { freePort } from '../../lib/net/ports.js';

/** Addresses the replayed geocoder knows (test/fixtures/partners/geoplateforme/). */
const KNOWN_ADDRESSES = [
  { recipient: { name: 'Mairie de Lyon', lines: ['1 place de la Comédie'], postcode: '69001', city: 'Lyon' }, cacheKey: '1 place de la comedie' },
  { recipient: { name: 'La Poste', lines: ['9 rue du Colonel Pierre Avia'], postcode: '75015', city: 'Paris' }, cacheKey: '9 rue du colonel pierre avia' },
] as const;

/** Cool-down of the breakers of the API under test: longer than a fresh /health reading takes (3 s). */
const COOL_DOWN_MS = 8000;

describe('circuit breakers on the partners of the request path (domain/lookups/breaker.ts)', function () {
  this.timeout(180_000);
  // The suite's replayed partners, reached by whichever worker takes the lookup's activity (the
  // partners' task queues are shared): their outage switch and request log.
  const geo = geocoder;
  const directory = companyDirectory;
  let services: IsolatedServices;
  let account: TestAccount;
  let metricsPort: number;

  before(async () => {
    metricsPort = await freePort();
    services = await new IsolatedServices(
      {
        TEMPORAL_TASK_QUEUE: `breaker-${randomUUID()}`,
        GEOCODING_BASE_URL: geo.baseUrl,
        COMPANIES_BASE_URL: directory.baseUrl,
        PARTNER_BREAKER_FAILURES: '3',
        PARTNER_BREAKER_COOL_DOWN: `${COOL_DOWN_MS}ms`,
      },
      { METRICS_PORT: String(metricsPort) },
    ).start();
    services.startWorker();
    account = await createAccount({ balanceCents: 10_000 });
  });

  after(async () => {
    await services?.stop();
    geo.reset();
    directory.reset();
  });

  /** A simple letter to `recipient`, through the API under test. */
  const mailTo = (recipient: object): Promise<ApiResponse> =>
    call('POST', '/v1/mailings', { key: account.testKey, baseUrl: services.api.url, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
  /** A mailing to an address no cache knows (a new street number each time). */
  let street = 0;
  const mailToUnknownAddress = (): Promise<ApiResponse> =>
    mailTo({ name: 'Mairie', lines: [`${++street} rue du Disjoncteur ${randomUUID().slice(0, 8)}`], postcode: '69001', city: 'Lyon' });
  const warnings = (res: ApiResponse): string[] => (res.body.warnings as { code: string }[]).map((w) => w.code);
  const health = async (): Promise<Record<string, { state: string }>> => {
    // /health is shared for 3 s: wait past that for a fresh reading.
    await sleep(3100);
    const res = await fetch(`${services.api.url}/health`);
    return ((await res.json()) as { partners: Record<string, { state: string }> }).partners;
  };
  const metric = async (name: string, partner: string): Promise<number> => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{partner="${partner}"}`));
    return Number(line?.split(' ').pop());
  };

  for (const fault of ['refuse', 'hang'] as const)
    it(`geocoder that ${fault === 'refuse' ? 'refuses every connection' : 'never answers'}: after 3 failures mailings go on at once, unchecked, without calling it; a probe after the cool-down closes it when the geocoder is back`, async () => {
      geo.outage = fault;
      for (let i = 0; i < 3; i++) {
        const res = await mailToUnknownAddress();
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        expect(warnings(res)).to.deep.equal(['address_check_unavailable']);
      }
      expect((await health()).geocoder).to.deep.equal({ state: 'open' });
      expect(await metric('svc_partner_breaker_state', 'geocoder')).to.equal(2);
      // Open: the same answer, and the geocoder is not asked (no lookup runs at all). The three
      // failed calls may still have attempts in flight: count from when those have ended.
      await sleep(fault === 'hang' ? 2500 : 500);
      const reached = geo.requests.length;
      const refusedBefore = await metric('svc_partner_breaker_refused', 'geocoder');
      const open = await Promise.all(Array.from({ length: 10 }, () => mailToUnknownAddress()));
      for (const res of open) expect(warnings(res)).to.deep.equal(['address_check_unavailable']);
      expect(geo.requests.length, 'requests that reached the geocoder while open').to.equal(reached);
      expect(await metric('svc_partner_breaker_refused', 'geocoder')).to.equal(refusedBefore + 10);
      // After the cool-down one call probes; still failing, it opens again.
      await sleep(COOL_DOWN_MS);
      expect(warnings(await mailToUnknownAddress())).to.deep.equal(['address_check_unavailable']);
      expect(geo.requests.length).to.be.greaterThan(reached);
      expect((await health()).geocoder).to.deep.equal({ state: 'open' });
      // Back: the next probe is answered, and the breaker closes. (The recorded address, its
      // cached answers removed, so that the probe asks the geocoder.)
      geo.outage = undefined;
      // (An address of its own for each test: the API process remembers an answer for minutes.)
      const known = fault === 'refuse' ? KNOWN_ADDRESSES[0] : KNOWN_ADDRESSES[1];
      await stack().db('partner_cache').where('key', 'like', `address-match:${known.cacheKey}%`).del();
      await sleep(COOL_DOWN_MS);
      const probe = await mailTo(known.recipient);
      expect(probe.status, JSON.stringify(probe.body)).to.equal(201);
      expect(warnings(probe)).to.deep.equal([]);
      expect((await health()).geocoder).to.deep.equal({ state: 'closed' });
      expect(await metric('svc_partner_breaker_state', 'geocoder')).to.equal(0);
    });

  it('company directory refusing: after 3 failures its lookups answer 502 at once, without calling it, cached answers still served', async () => {
    directory.outage = 'refuse';
    // Valid SIRETs (INSEE's key) that no cache knows: each asks the directory.
    const unknownSiret = ['81200000800019', '81200001600012', '81200002400016', '81200003200019'];
    for (const siret of unknownSiret.slice(0, 3)) {
      const res = await call('GET', `/v1/companies/${siret}`, { key: account.testKey, baseUrl: services.api.url });
      expect(res.status, JSON.stringify(res.body)).to.equal(502);
      expect(res.body.error.code).to.equal('upstream_error');
    }
    expect((await health()).companyDirectory).to.deep.equal({ state: 'open' });
    await sleep(500);
    const reached = directory.requests.length;
    const refused = await call('GET', `/v1/companies/${unknownSiret[3]}`, { key: account.testKey, baseUrl: services.api.url });
    expect(refused.status).to.equal(502);
    expect(refused.body.error.code).to.equal('upstream_error');
    expect(directory.requests.length).to.equal(reached);
    // The geocoder's breaker is its own: closed.
    expect((await health()).geocoder).to.deep.equal({ state: 'closed' });
  });

  it('shows every partner in /health, closed for those never called, and leaves status ok: partners are not ours', async () => {
    const res = await eventually(
      () => fetch(`${services.api.url}/health`).then(async (r) => ({ status: r.status, body: (await r.json()) as { status: string; partners: object } })),
      (r) => r.status === 200,
      10_000,
      200,
    );
    expect(res.body.status).to.equal('ok');
    expect(Object.keys(res.body.partners).sort()).to.deep.equal(['companyDirectory', 'fuel', 'geocoder', 'routing']);
    expect(res.body.partners).to.deep.include({ routing: { state: 'closed' }, fuel: { state: 'closed' } });
  });
});
