import { expect } from 'chai';
import { awayFromMinuteBoundary, call, expenseGroup, spawnApiProcess } from '../support/api.js';

/**
 * The client address every per-address guard counts by (here the failed-authentication limit),
 * over real sockets: behind N proxies that each append the address they received from, only the
 * entry N from the right is believed; what a client writes further left is ignored (issue 50).
 */
describe('the client address behind trusted proxies (TRUST_PROXY_HOPS)', function () {
  this.timeout(120_000);
  const LIMIT = 3;
  const madeUpKey = (i: number): string => 'svc_test_' + String(i).padStart(32, 'W');

  /** Failed authentications, each with its own X-Forwarded-For; the answers' statuses. */
  async function failures(url: string, forwardedFor: (i: number) => string | undefined, count: number, from = 0): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = from; i < from + count; i++) {
      const header = forwardedFor(i);
      const res = await call('POST', '/v1/expenses/settle', {
        key: madeUpKey(i),
        body: expenseGroup(),
        baseUrl: url,
        headers: header === undefined ? {} : { 'x-forwarded-for': header },
      });
      statuses.push(res.status);
    }
    return statuses;
  }

  /** A forged entry, new for each request: what a client would write to get a fresh budget. */
  const forged = (i: number): string => `198.18.0.${i + 1}`;

  for (const { hops, env, forwardedFor, other } of [
    {
      hops: 1,
      env: { TRUST_PROXY: '1' },
      forwardedFor: (i: number) => `${forged(i)}, 203.0.113.7`,
      // Another client whose leftmost entry names the throttled address.
      other: '203.0.113.7, 203.0.113.99',
    },
    {
      hops: 2,
      env: { TRUST_PROXY_HOPS: '2' },
      forwardedFor: (i: number) => `${forged(i)}, 203.0.113.7, 10.0.0.2`,
      other: '203.0.113.7, 203.0.113.99, 10.0.0.2',
    },
  ]) {
    it(`${hops} hop(s): failures sent with a new forged address each count for the address our proxies appended; another client is its own`, async () => {
      const api = await spawnApiProcess({ ...env, FAILED_AUTH_PER_MINUTE: String(LIMIT), LOG_LEVEL: 'warn' });
      try {
        await awayFromMinuteBoundary();
        expect(await failures(api.url, forwardedFor, LIMIT)).to.deep.equal(Array(LIMIT).fill(401));
        expect(await failures(api.url, forwardedFor, 1, LIMIT)).to.deep.equal([429]);
        expect(await failures(api.url, () => other, 1, LIMIT + 1)).to.deep.equal([401]);
      } finally {
        await api.stop();
      }
    });
  }

  it('no proxy trusted (the default): X-Forwarded-For is ignored, the socket address counts', async () => {
    const api = await spawnApiProcess({ FAILED_AUTH_PER_MINUTE: String(LIMIT), LOG_LEVEL: 'warn' });
    try {
      await awayFromMinuteBoundary();
      const each = (i: number): string => forged(i);
      expect(await failures(api.url, each, LIMIT)).to.deep.equal(Array(LIMIT).fill(401));
      expect(await failures(api.url, each, 1, LIMIT)).to.deep.equal([429]);
      expect(await failures(api.url, () => undefined, 1, LIMIT + 1)).to.deep.equal([429]);
    } finally {
      await api.stop();
    }
  });
});
