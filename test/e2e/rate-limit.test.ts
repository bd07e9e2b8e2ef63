import { expect } from 'chai';
import { awayFromMinuteBoundary, call, createAccount, expenseGroup, spawnApiProcess, type ApiProcess } from '../support/api.js';
import { stack } from '../support/stack.js';
import { LeasedCounter } from '../../domain/access/leased-counter.js';
import { safeEqualText } from '../../lib/crypto.js';

const settle = (key: string, baseUrl?: string) => call('POST', '/v1/expenses/settle', { key, body: expenseGroup(), baseUrl });

describe('rate limit and sandbox quota', () => {
  it('sends RateLimit-* and X-Service-Balance headers on every authenticated response', async () => {
    const account = await createAccount({ balanceCents: 1234 });
    await awayFromMinuteBoundary();
    const first = await settle(account.testKey);
    const second = await settle(account.testKey);
    expect(first.headers.get('ratelimit-limit')).to.equal('120');
    expect(Number(first.headers.get('ratelimit-remaining'))).to.equal(119);
    expect(Number(second.headers.get('ratelimit-remaining'))).to.equal(118);
    const reset = Number(first.headers.get('ratelimit-reset'));
    expect(reset).to.be.within(1, 60);
    expect(first.headers.get('x-service-balance')).to.equal('1234');
    // Error responses of an authenticated call carry them too.
    const invalid = await call('POST', '/v1/expenses/settle', { key: account.testKey, body: {} });
    expect(invalid.status).to.equal(400);
    expect(invalid.headers.get('ratelimit-remaining')).to.equal('117');
    expect(invalid.headers.get('x-service-balance')).to.equal('1234');
  });

  it('answers 429 rate_limited past 120 requests in a minute for one key', async function () {
    this.timeout(60_000);
    const account = await createAccount();
    await awayFromMinuteBoundary(20);
    for (let batch = 0; batch < 12; batch++) {
      const results = await Promise.all(Array.from({ length: 10 }, () => settle(account.testKey)));
      expect(results.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
    }
    const limited = await settle(account.testKey);
    expect(limited.status).to.equal(429);
    expect(limited.body.error.code).to.equal('rate_limited');
    expect(limited.headers.get('ratelimit-remaining')).to.equal('0');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    // Another key of the same account has its own budget.
    expect((await settle(account.liveKey)).status).to.equal(200);
  });

  describe('shared by several API processes', () => {
    let a: ApiProcess;
    let b: ApiProcess;
    before(async function () {
      this.timeout(60_000);
      [a, b] = await Promise.all([
        spawnApiProcess({ RATE_LIMIT_PER_MINUTE: '10', SANDBOX_DAILY_QUOTA: '7' }),
        spawnApiProcess({ RATE_LIMIT_PER_MINUTE: '10', SANDBOX_DAILY_QUOTA: '7' }),
      ]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
    });

    it('counts one key across processes: 10 of 14 alternating calls pass', async () => {
      const account = await createAccount();
      await awayFromMinuteBoundary();
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) statuses.push((await settle(account.liveKey, (i % 2 ? a : b).url)).status);
      expect(statuses.filter((s) => s === 200)).to.have.length(10);
      expect(statuses.slice(10)).to.deep.equal([429, 429, 429, 429]);
    });

    it('429 test_quota_exceeded past the sandbox daily quota, over all test keys of the account', async () => {
      const account = await createAccount();
      const { createKey } = await import('../support/api.js');
      const secondTestKey = await createKey(account.id, 'test', ['catalogue:read']);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await settle(account.testKey, a.url)).status);
      for (let i = 0; i < 4; i++) statuses.push((await settle(secondTestKey, b.url)).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200, 200, 429]);
      const refused = await settle(account.testKey, a.url);
      expect(refused.body.error.code).to.equal('test_quota_exceeded');
      // Live keys are not in the sandbox quota.
      expect((await settle(account.liveKey, a.url)).status).to.equal(200);
    });
  });
});

describe('leased counter windows', () => {
  const counted = async (keyId: string, window: number): Promise<number> =>
    Number((await stack().db('rate_limit_windows').where({ key_id: keyId, window_start: window }).first('count'))?.count ?? 0);

  it('starts a new window with a fresh budget, and counts a late call of the previous window in that window', async () => {
    const account = await createAccount();
    const { id: keyId } = await stack().db('api_keys').where({ account_id: account.id, mode: 'test' }).first('id');
    const counter = new LeasedCounter(stack().db, 'rate_limit_windows', 'key_id', 'window_start');
    const limit = 3;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await counter.take(keyId, 1000, limit));
    expect(results.map((r) => r.allowed)).to.deep.equal([true, true, true, false]);
    // The next minute has its whole budget again.
    expect((await counter.take(keyId, 1001, limit)).allowed).to.equal(true);
    // A call that began in the previous minute is still refused there, and spends nothing of the new one.
    expect((await counter.take(keyId, 1000, limit)).allowed).to.equal(false);
    expect((await counter.take(keyId, 1001, limit)).allowed).to.equal(true);
    expect((await counter.take(keyId, 1001, limit)).allowed).to.equal(true);
    expect((await counter.take(keyId, 1001, limit)).allowed).to.equal(false);
    expect(await counted(keyId, 1000)).to.be.at.least(3);
    expect(await counted(keyId, 1001)).to.equal(3);
  });
});

describe('safeEqualText', () => {
  it('is true only for identical strings', () => {
    const digest = 'a'.repeat(63) + 'b';
    expect(safeEqualText(digest, 'a'.repeat(63) + 'b')).to.equal(true);
    expect(safeEqualText(digest, 'a'.repeat(64))).to.equal(false);
    expect(safeEqualText(digest, 'b' + 'a'.repeat(63))).to.equal(false);
    expect(safeEqualText(digest, digest.slice(1))).to.equal(false);
    expect(safeEqualText('', '')).to.equal(true);
  });
});
