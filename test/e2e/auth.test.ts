import { expect } from 'chai';
import { call, createAccount, createKey, eventually, expenseGroup, spawnApiProcess } from '../support/api.js';
import { stack } from '../support/stack.js';

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
