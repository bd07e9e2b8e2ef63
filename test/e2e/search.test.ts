import { expect } from 'chai';
import { call, createAccount, eventually, type TestAccount } from '../support/api.js';
import { embeddings } from '../support/embeddings-server.js';

describe('search', function () {
  this.timeout(30_000);
  let account: TestAccount;
  const search = (q: string, extra = '') => call('GET', `/v1/search?q=${encodeURIComponent(q)}${extra}`, { key: account.testKey });

  before(async () => {
    account = await createAccount();
    // The catalogue's vectors are computed on first use, through Temporal, and a search answers
    // lexically while they load (up to 3 s): loaded here, whatever this machine's pace, so that the
    // tests below meet the semantic engine ready. With two stacks on two cores the first load can
    // take longer than the 3 s a search waits for it.
    await eventually(
      () => search('je veux arrêter mon forfait de téléphone portable'),
      (res) => res.body.mode === 'hybrid',
      25_000,
      500,
    );
  });

  it('matches keywords and aliases, ignoring accents and case', async () => {
    for (const q of ['démission', 'DEMISSION', 'demission']) {
      const res = await search(q);
      expect(res.status).to.equal(200);
      expect(res.body.results[0].slug, q).to.equal('lettre-demission');
    }
    const box = await search('freebox');
    expect(box.body.results.map((r: { slug: string }) => r.slug)).to.include('resiliation-box-internet');
  });

  it('stays lexical for one or two words that keywords find, without calling the semantic engine', async () => {
    const before = embeddings.calls;
    const res = await search('préavis logement');
    expect(res.body.mode).to.equal('lexical');
    expect(res.body.results[0].matchedBy).to.deep.equal(['lexical']);
    expect(embeddings.calls).to.equal(before);
  });

  it('merges the semantic engine for queries of 3 words or more', async () => {
    const res = await search('je veux arrêter mon forfait de téléphone portable');
    expect(res.status).to.equal(200);
    expect(res.body.mode).to.equal('hybrid');
    expect(res.body.results.map((r: { slug: string }) => r.slug)).to.include('resiliation-forfait-mobile');
    expect(res.body.results.some((r: { matchedBy: string[] }) => r.matchedBy.includes('semantic'))).to.equal(true);
  });

  it('uses the semantic engine when keywords find nothing', async () => {
    const res = await search('résiliaton');
    expect(res.body.mode).to.equal('hybrid');
    expect(res.body.results.length).to.be.greaterThan(0);
    expect(res.body.results[0].slug).to.match(/^resiliation-/);
    expect(res.body.results[0].matchedBy).to.deep.equal(['semantic']);
  });

  it('never calls the semantic engine with mode=lexical', async () => {
    const before = embeddings.calls;
    const res = await search('je veux arrêter mon forfait de téléphone portable', '&mode=lexical');
    expect(res.body.mode).to.equal('lexical');
    expect(embeddings.calls).to.equal(before);
  });

  it('answers lexically, saying so, while the semantic engine is down', async () => {
    await embeddings.stop();
    try {
      const res = await search('je veux contester une amende de stationnement');
      expect(res.status).to.equal(200);
      expect(res.body.mode).to.equal('lexical');
      expect(res.body.results.map((r: { slug: string }) => r.slug)).to.include('requete-exoneration-amende');
    } finally {
      await embeddings.start();
    }
    expect((await search('je veux contester une amende de stationnement')).body.mode).to.equal('hybrid');
  });

  it('validates q, limit and mode', async () => {
    expect((await search('')).status).to.equal(400);
    expect((await search('x'.repeat(201))).status).to.equal(400);
    expect((await search('box', '&limit=51')).status).to.equal(400);
    expect((await search('box', '&mode=fuzzy')).status).to.equal(400);
    expect((await search('résiliation', '&limit=2')).body.results).to.have.length(2);
  });
});
