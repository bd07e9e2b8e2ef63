import { expect } from 'chai';
import { call, createAccount, type TestAccount } from '../support/api.js';
import { catalogue, catalogueProblems, loadCatalogueData, placeholders } from '../../domain/catalogue/catalogue.js';
import { communes } from '../../domain/geo/communes.js';

describe('catalogue', () => {
  let account: TestAccount;
  before(async () => {
    account = await createAccount();
  });

  describe('data (schema-checked)', () => {
    const data = loadCatalogueData();

    it('has at least 40 letters in at least 8 categories, 6 calculators, 4 AI tools and 3 quotes', () => {
      expect(data.letters.length).to.be.at.least(40);
      expect(new Set(data.letters.map((l) => l.category)).size).to.be.at.least(8);
      expect(data.calculators.length).to.be.at.least(6);
      expect(data.aiTools.length).to.be.at.least(4);
      expect(data.quotes.length).to.be.at.least(3);
      expect(data.quotes.some((q) => q.needsRoute)).to.equal(true);
    });

    it('passes every cross-entry rule (unique slugs, known categories, declared placeholders)', () => {
      expect(catalogueProblems(data)).to.deep.equal([]);
    });

    it('detects an undeclared placeholder and a duplicate slug', () => {
      const broken = structuredClone(data);
      broken.letters[0]!.body += ' {{notAField}}';
      broken.calculators[0]!.slug = broken.letters[1]!.slug;
      const problems = catalogueProblems(broken);
      expect(problems.some((p) => p.includes('{{notAField}}'))).to.equal(true);
      expect(problems.some((p) => p.includes('slug already used'))).to.equal(true);
    });

    it('gives providers valid French addresses (official commune list, CEDEX included)', () => {
      const problems = data.letters.flatMap((l) =>
        l.providers.map((p) => [l.slug, p.slug, communes().postalProblem(p.address.postcode, p.address.city)] as const).filter(([, , problem]) => problem),
      );
      expect(problems).to.deep.equal([]);
      expect(data.letters.some((l) => l.providers.length > 0)).to.equal(true);
    });

    it('cites a legal basis for every letter and reads placeholders', () => {
      expect(data.letters.every((l) => l.legalBasis.length > 0)).to.equal(true);
      expect(placeholders('A {{x}} and {{ provider.name }}')).to.deep.equal(['x', 'provider.name']);
    });
  });

  describe('GET /v1/catalogue', () => {
    it('returns the catalogue with a strong ETag and Cache-Control', async () => {
      const res = await call('GET', '/v1/catalogue', { key: account.testKey });
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.match(/^"[0-9a-f]{32}"$/);
      expect(res.headers.get('cache-control')).to.equal('private, max-age=0, must-revalidate');
      expect(res.body).to.have.keys('version', 'categories', 'letters', 'calculators', 'aiTools', 'quotes', 'prices');
      expect(res.body.letters).to.have.length(catalogue().letters.size);
      const letter = res.body.letters[0];
      expect(letter).to.have.keys('slug', 'title', 'category', 'summary', 'legalBasis', 'sources', 'recommendedMode', 'keywords', 'providers', 'fields');
      // A source is read (checkedOn, the day it was) or says it was not (status "unverified", no date).
      for (const source of res.body.letters.flatMap((l: { sources: Record<string, string>[] }) => l.sources)) {
        expect(source).to.include.keys('text', 'article', 'url');
        expect('checkedOn' in source, JSON.stringify(source)).to.equal(source.status !== 'unverified');
      }
      expect(
        res.body.letters.flatMap((l: { sources: { status?: string }[] }) => l.sources).some((s: { status?: string }) => s.status === 'unverified'),
      ).to.equal(true);
      expect(res.body.calculators[0].sources.length).to.be.greaterThan(0);
      expect(letter).not.to.have.property('body');
      expect(res.body.prices.units.find((u: { unit: string }) => u.unit === 'mailing.ar').amountCents).to.be.a('number');
    });

    it('answers 304 without a body when If-None-Match holds the current ETag', async () => {
      const first = await call('GET', '/v1/catalogue', { key: account.testKey });
      const etag = first.headers.get('etag')!;
      for (const header of [etag, `"nope", ${etag}`, `W/${etag}`]) {
        const res = await call('GET', '/v1/catalogue', { key: account.testKey, headers: { 'if-none-match': header } });
        expect(res.status, header).to.equal(304);
        expect(res.text).to.equal('');
        expect(res.headers.get('etag')).to.equal(etag);
      }
      const stale = await call('GET', '/v1/catalogue', { key: account.testKey, headers: { 'if-none-match': '"old"' } });
      expect(stale.status).to.equal(200);
    });

    it('needs the catalogue:read scope and refuses unknown query parameters', async () => {
      const { createKey } = await import('../support/api.js');
      const key = await createKey(account.id, 'test', ['mailings:read']);
      expect((await call('GET', '/v1/catalogue', { key })).body.error.code).to.equal('insufficient_scope');
      const res = await call('GET', '/v1/catalogue?foo=1', { key: account.testKey });
      expect(res.status).to.equal(400);
    });
  });
});
