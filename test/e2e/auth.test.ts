import { expect } from 'chai';
import { Agent, request as httpRequest } from 'node:http';
import { awayFromMinuteBoundary, call, createAccount, createKey, eventually, expenseGroup, spawnApiProcess } from '../support/api.js';
import { KeyStore } from '../../api/caches/key-store.js';
import { apiKeyDigest } from '../../domain/access/keys.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';

const settle = (key: string | undefined, headers: Record<string, string> = {}) => call('POST', '/v1/expenses/settle', { key, body: expenseGroup(), headers });

describe('authentication', () => {
  it('401 invalid_api_key without a key, with a malformed key or an unknown key', async () => {
    const unknown = 'svc_test_' + 'A'.repeat(32);
    for (const res of [
      await settle(undefined),
      await settle(undefined, { authorization: 'Basic abc' }),
      await settle('svc_test_short'),
      await settle(unknown),
    ]) {
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('invalid_api_key');
      expect(res.headers.get('x-service-balance')).to.equal(null);
    }
  });

  it('401 revoked_api_key once a key is revoked', async () => {
    const account = await createAccount();
    expect((await settle(account.testKey)).status).to.equal(200);
    await stack().db('api_keys').where({ account_id: account.id, mode: 'test' }).update({ revoked_at: stack().db.fn.now() });
    const res = await eventually(
      () => settle(account.testKey),
      (r) => r.status !== 200,
    );
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('revoked_api_key');
  });

  it('403 account_suspended for every key of a suspended account', async () => {
    const account = await createAccount();
    expect((await settle(account.liveKey)).status).to.equal(200);
    await stack().db('accounts').where({ id: account.id }).update({ status: 'suspended' });
    for (const key of [account.testKey, account.liveKey]) {
      const res = await eventually(
        () => settle(key),
        (r) => r.status !== 200,
      );
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('account_suspended');
    }
  });

  it('403 live_not_enabled for live keys before validation; test keys work', async () => {
    const account = await createAccount({ liveEnabled: false });
    const live = await settle(account.liveKey);
    expect(live.status).to.equal(403);
    expect(live.body.error.code).to.equal('live_not_enabled');
    expect((await settle(account.testKey)).status).to.equal(200);
  });

  it('403 insufficient_scope when the key lacks the operation scope', async () => {
    const account = await createAccount();
    const key = await createKey(account.id, 'test', ['mailings:read', 'data:read']);
    const res = await settle(key);
    expect(res.status).to.equal(403);
    expect(res.body.error).to.deep.include({ code: 'insufficient_scope', details: { required: 'catalogue:read' } });
    const allowed = await createKey(account.id, 'test', ['catalogue:read']);
    expect((await settle(allowed)).status).to.equal(200);
  });

  it('one keep-alive connection presenting different keys: each call is authenticated with its own key', async () => {
    const rich = await createAccount({ balanceCents: 5000 });
    const poor = await createAccount();
    const narrow = await createKey(poor.id, 'test', ['mailings:read']);
    const unknown = 'svc_test_' + 'B'.repeat(32);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const calls: [string, number, string | undefined][] = [];
    try {
      for (const key of [rich.liveKey, poor.liveKey, unknown, rich.liveKey, narrow, rich.liveKey]) {
        const answer = await new Promise<[number, string | undefined, boolean]>((resolve, reject) => {
          const req = httpRequest(`${stack().api.url}/v1/catalogue`, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
            res.resume();
            res.on('end', () => resolve([res.statusCode!, res.headers['x-service-balance'] as string | undefined, req.reusedSocket]));
          });
          req.on('error', reject);
          req.end();
        });
        calls.push([key, answer[0], answer[1]]);
        if (calls.length > 1) expect(answer[2], 'the same connection').to.equal(true);
      }
    } finally {
      agent.destroy();
    }
    expect(calls.map(([, status, balance]) => [status, balance])).to.deep.equal([
      [200, '5000'],
      [200, '0'],
      [401, undefined],
      [200, '5000'],
      [403, '0'],
      [200, '5000'],
    ]);
  });

  it('stores keys hashed only', async () => {
    const account = await createAccount();
    const rows = await stack().db('api_keys').where({ account_id: account.id });
    const dump = JSON.stringify(rows, (_k, v) => (v && v.type === 'Buffer' ? Buffer.from(v.data).toString('latin1') : v));
    expect(dump).not.to.include(account.testKey);
    expect(dump).not.to.include(account.testKey.slice(9));
    expect(rows.every((r) => r.key_hash.length === 32)).to.equal(true);
  });

  it('never writes a key into the logs, even at debug level', async function () {
    this.timeout(60_000);
    const account = await createAccount();
    const api = await spawnApiProcess({ LOG_LEVEL: 'debug' });
    try {
      await call('POST', '/v1/expenses/settle', { key: account.testKey, body: expenseGroup(), baseUrl: api.url });
      await call('POST', '/v1/expenses/settle', { key: account.testKey + 'x', body: expenseGroup(), baseUrl: api.url });
    } finally {
      await api.stop();
    }
    expect(api.output()).to.include('"path":"/v1/expenses/settle"');
    expect(api.output()).not.to.include(account.testKey.slice(9));
  });
});

describe('authentication under a flood of made-up keys', function () {
  this.timeout(60_000);

  it('refuses a client address for the rest of the minute after too many failed authentications (429, Retry-After)', async () => {
    const api = await spawnApiProcess({ FAILED_AUTH_PER_MINUTE: '5', LOG_LEVEL: 'warn' });
    try {
      const account = await createAccount();
      await awayFromMinuteBoundary();
      const made = (i: number) => 'svc_test_' + String(i).padStart(32, 'Z');
      for (let i = 0; i < 5; i++) {
        const res = await call('POST', '/v1/expenses/settle', { key: made(i), body: expenseGroup(), baseUrl: api.url });
        expect(res.status, `attempt ${i + 1}`).to.equal(401);
      }
      const blocked = await call('POST', '/v1/expenses/settle', { key: made(6), body: expenseGroup(), baseUrl: api.url });
      expect(blocked.status).to.equal(429);
      expect(blocked.body.error.code).to.equal('rate_limited');
      expect(Number(blocked.headers.get('retry-after'))).to.be.within(1, 60);
      // Before any lookup: even a valid key from that address waits for the next minute.
      const valid = await call('POST', '/v1/expenses/settle', { key: account.testKey, body: expenseGroup(), baseUrl: api.url });
      expect(valid.status).to.equal(429);
    } finally {
      await api.stop();
    }
  });

  it('remembers unknown keys apart, bounded: they never evict a valid key from the cache', async () => {
    const { db } = stack();
    const databaseUrl = process.env.DATABASE_URL!;
    const store = new KeyStore(db, databaseUrl, 100);
    await store.start();
    try {
      const account = await createAccount();
      const digest = apiKeyDigest(account.testKey);
      expect(await store.find(digest)).to.include({ accountId: account.id });
      const unknown = Array.from({ length: 300 }, (_, i) => apiKeyDigest('svc_test_' + String(i).padStart(32, 'Y')));
      for (const d of unknown) expect(await store.find(d)).to.equal(null);
      // Still cached: answered synchronously, no query.
      expect(store.find(digest)).to.include({ accountId: account.id });
      // The latest unknown keys are remembered (no query either); the oldest were evicted.
      expect(store.find(unknown.at(-1)!)).to.equal(null);
      expect(store.find(unknown[0]!)).to.be.instanceOf(Promise);
    } finally {
      await store.stop();
    }
  });
});

describe('proof links (the link is the credential)', function () {
  this.timeout(60_000);

  it('never logs the token, and refuses an address that keeps trying links that do not open (429)', async () => {
    const api = await spawnApiProcess({ LOG_LEVEL: 'info' });
    let token: string | undefined;
    try {
      const account = await createAccount();
      const created = await call('POST', '/v1/mailings', {
        key: account.testKey,
        body: { mode: 'simple', letter: freeLetter, sender, recipient },
        baseUrl: api.url,
      });
      await call('POST', `/v1/test/mailings/${created.body.id}/advance`, { key: account.testKey, body: { step: 2 }, baseUrl: api.url });
      const link = await eventually(
        () => call('GET', `/v1/mailings/${created.body.id}/proofs/filing`, { key: account.testKey, baseUrl: api.url }),
        (r) => r.status === 200,
        10_000,
        200,
      );
      token = new URL(link.body.url).pathname.split('/').pop()!;
      const path = `/v1/proof-files/${token}`;
      expect((await call('GET', path, { baseUrl: api.url })).status).to.equal(200);
      await awayFromMinuteBoundary();
      // A forged link: the right shape, a guessed tag.
      const [iv, tag, body] = token.split('.') as [string, string, string];
      // Twenty guesses that all differ from the real tag (a guess equal to it would open the proof).
      const guesses = Array.from({ length: 21 }, (_, i) => String(i).padStart(2, '0')).filter((ending) => ending !== tag.slice(-2));
      for (const ending of guesses.slice(0, 20)) {
        const forged = [iv, tag.slice(0, -2) + ending, body].join('.');
        expect((await call('GET', `/v1/proof-files/${forged}`, { baseUrl: api.url })).status).to.equal(404);
      }
      const blocked = await call('GET', path, { baseUrl: api.url });
      expect(blocked.status).to.equal(429);
      expect(blocked.body.error.code).to.equal('rate_limited');
      expect(Number(blocked.headers.get('retry-after'))).to.be.within(1, 60);
    } finally {
      await api.stop();
    }
    expect(api.output()).to.include('"path":"/v1/proof-files/[redacted]"');
    expect(api.output()).not.to.include(token!);
  });
});
