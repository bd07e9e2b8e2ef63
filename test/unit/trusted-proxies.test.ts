import { expect } from 'chai';
import { loadConfig } from '../../lib/config.js';

describe('trusted proxies (TRUST_PROXY_HOPS, TRUST_PROXY)', () => {
  const hops = (env: Record<string, string>): number => loadConfig({ APP_ENV: 'local', ...env }).trustedProxyHops;

  it('trusts no proxy unless told: the socket address, X-Forwarded-For ignored', () => {
    expect(hops({})).to.equal(0);
  });

  it('reads TRUST_PROXY=1 as one proxy, as before', () => {
    expect(hops({ TRUST_PROXY: '1' })).to.equal(1);
  });

  it('takes the number of proxies from TRUST_PROXY_HOPS', () => {
    expect(hops({ TRUST_PROXY_HOPS: '2' })).to.equal(2);
    expect(hops({ TRUST_PROXY: '1', TRUST_PROXY_HOPS: '3' })).to.equal(3);
  });

  it('refuses a count that is not a whole number, and settings that contradict each other', () => {
    expect(() => hops({ TRUST_PROXY_HOPS: 'two' })).to.throw(/TRUST_PROXY_HOPS/);
    expect(() => hops({ TRUST_PROXY_HOPS: '-1' })).to.throw(/TRUST_PROXY_HOPS/);
    expect(() => hops({ TRUST_PROXY: '1', TRUST_PROXY_HOPS: '0' })).to.throw(/TRUST_PROXY_HOPS=0/);
  });
});
