import { expect } from 'chai';
import { loadConfig } from '../../lib/config.js';

describe('the account closing grace period (ACCOUNT_CLOSING_GRACE)', () => {
  const DAYS_30 = 30 * 86_400_000;
  const grace = (env: Record<string, string>): number => loadConfig(env).accountClosingGraceMs;

  it('is 30 days unless a test shortens it', () => {
    expect(grace({ APP_ENV: 'local' })).to.equal(DAYS_30);
    expect(grace({ APP_ENV: 'local', ACCOUNT_CLOSING_GRACE: '2s' })).to.equal(2000);
  });

  it('is always 30 days in production, whatever the environment says', () => {
    expect(grace({ APP_ENV: 'production', SECRET_KEY: 'ab'.repeat(32), ACCOUNT_CLOSING_GRACE: '2s' })).to.equal(DAYS_30);
  });
});
