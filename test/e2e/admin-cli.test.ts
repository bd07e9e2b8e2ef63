import { admin } from '../support/admin.js';
import { expect } from 'chai';
import { call, eventually, expenseGroup } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { decrypt } from '../../lib/crypto.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { submitProductionAccess } from '../../domain/access/production-access.js';
import { domainDeps } from '../../temporal/domain-deps.js';

describe('admin CLI (DESIGN.md §3)', function () {
  this.timeout(30_000);
  let accountId: string;

  before(async () => {
    const created = await admin(['account', 'create', '--name', 'Acme SAS']);
    expect(created.code).to.equal(0);
    expect(created.json.id).to.match(/^[0-9a-f-]{36}$/);
    accountId = created.json.id;
  });

  it('creates keys with every scope by default, or the given ones', async () => {
    const all = await admin(['key', 'create', '--account', accountId, '--mode', 'test']);
    expect(all.code).to.equal(0);
    expect(all.json.key).to.match(/^svc_test_[0-9A-Za-z]{32}$/);
    const row = await stack().db('api_keys').where({ id: all.json.id }).first();
    expect(row.scopes).to.deep.equal([...SCOPES]);
    const some = await admin(['key', 'create', '--account', accountId, '--mode', 'live', '--scopes', 'data:read,mailings:read']);
    expect(some.json.key).to.match(/^svc_live_/);
    expect((await stack().db('api_keys').where({ id: some.json.id }).first()).scopes).to.deep.equal(['data:read', 'mailings:read']);
    const bad = await admin(['key', 'create', '--account', accountId, '--mode', 'test', '--scopes', 'root:all']);
    expect(bad.code).to.not.equal(0);
    expect(bad.json.error.code).to.equal('invalid_arguments');
  });

  it('revokes a key by its value or its id', async () => {
    const a = await admin(['key', 'create', '--account', accountId, '--mode', 'test']);
    const b = await admin(['key', 'create', '--account', accountId, '--mode', 'test']);
    expect((await admin(['key', 'revoke', '--key', a.json.key])).json.id).to.equal(a.json.id);
    expect((await admin(['key', 'revoke', '--key', b.json.id])).json.id).to.equal(b.json.id);
    const res = await eventually(
      () => call('POST', '/v1/expenses/settle', { key: a.json.key, body: expenseGroup() }),
      (r) => r.status === 401,
    );
    expect(res.body.error.code).to.equal('revoked_api_key');
  });

  it('tops up the balance through the ledger', async () => {
    expect((await admin(['balance', 'topup', '--account', accountId, '--cents', '1500'])).json).to.deep.equal({ balanceCents: 1500 });
    expect((await admin(['balance', 'topup', '--account', accountId, '--cents', '500'])).json).to.deep.equal({ balanceCents: 2000 });
    expect((await admin(['balance', 'topup', '--account', accountId, '--cents', '-5'])).code).to.not.equal(0);
  });

  it('suspends, unsuspends and opens production', async () => {
    const key = (await admin(['key', 'create', '--account', accountId, '--mode', 'live'])).json.key;
    const settle = () => call('POST', '/v1/expenses/settle', { key, body: expenseGroup() });
    expect((await settle()).body.error.code).to.equal('live_not_enabled');
    expect((await admin(['account', 'live-enable', '--account', accountId])).json.liveEnabled).to.equal(true);
    expect((await eventually(settle, (r) => r.status === 200)).status).to.equal(200);
    expect((await admin(['account', 'suspend', '--account', accountId])).json.status).to.equal('suspended');
    expect((await eventually(settle, (r) => r.status === 403)).body.error.code).to.equal('account_suspended');
    await admin(['account', 'unsuspend', '--account', accountId]);
    expect((await eventually(settle, (r) => r.status === 200)).status).to.equal(200);
  });

  it('lists production access requests waiting for an operator (account pending); live-enable approves them, its output unchanged', async () => {
    const account = (await admin(['account', 'create', '--name', 'Waiting SAS'])).json.id;
    const { config, db, temporal } = stack();
    const useCase = 'Relances de loyers impayés en recommandé, une centaine par mois.';
    const submitted = await submitProductionAccess(domainDeps(db, config, temporal.client), account, { siret: '35600000000048', useCase });
    expect(submitted.kind).to.equal('submitted');
    const pending = await admin(['account', 'pending']);
    expect(pending.code).to.equal(0);
    const listed = pending.json.data.find((r: { accountId: string }) => r.accountId === account);
    expect(listed).to.deep.include({ accountName: 'Waiting SAS', siret: '35600000000048', legalName: 'LA POSTE', useCase, status: 'pending', decidedAt: null });
    expect(listed.address).to.equal('9 RUE DU COLONEL PIERRE AVIA 75015 PARIS');
    expect(listed.id).to.match(/^[0-9a-f-]{36}$/);
    expect(Date.parse(listed.createdAt)).to.be.closeTo(Date.now(), 60_000);
    expect(await admin(['account', 'live-enable', '--account', account])).to.deep.equal({
      code: 0,
      json: { id: account, status: 'active', liveEnabled: true },
    });
    expect((await admin(['account', 'pending'])).json.data.map((r: { accountId: string }) => r.accountId)).not.to.include(account);
    expect(await db('production_access_requests').where({ account_id: account }).first('status')).to.deep.equal({ status: 'approved' });
  });

  it('creates webhook endpoints: whsec_ secret shown once, stored encrypted, at most 5', async () => {
    const account = (await admin(['account', 'create', '--name', 'Hooks'])).json.id;
    const created = await admin([
      'webhook',
      'create',
      '--account',
      account,
      '--url',
      'https://127.0.0.1:9443/hooks',
      '--env',
      'test',
      '--events',
      'mailing.created,mailing.posted',
    ]);
    expect(created.code).to.equal(0);
    expect(created.json.secret).to.match(/^whsec_[0-9A-Za-z]{32}$/);
    const row = await stack().db('webhook_endpoints').where({ id: created.json.id }).first();
    expect(row.secret_sealed).not.to.include(created.json.secret.slice(6));
    expect(decrypt(row.secret_sealed, stack().config.secretKey)).to.equal(created.json.secret);
    expect(row.events).to.deep.equal(['mailing.created', 'mailing.posted']);
    for (let i = 0; i < 4; i++)
      expect((await admin(['webhook', 'create', '--account', account, '--url', `https://127.0.0.1/h${i}`, '--env', 'live'])).code).to.equal(0);
    const sixth = await admin(['webhook', 'create', '--account', account, '--url', 'https://127.0.0.1/h6', '--env', 'live']);
    expect(sixth.code).to.not.equal(0);
    expect(sixth.json.error.code).to.equal('limit_reached');
  });

  it('refuses plain HTTP, unknown events and (without WEBHOOK_ALLOW_PRIVATE) private targets', async () => {
    const account = (await admin(['account', 'create', '--name', 'Strict'])).json.id;
    const create = (url: string, env: Record<string, string> = {}, extra: string[] = []) =>
      admin(['webhook', 'create', '--account', account, '--url', url, '--env', 'test', ...extra], env);
    expect((await create('http://example.com/hook')).json.error.code).to.equal('https_required');
    expect((await create('https://example.com/hook', {}, ['--events', 'mailing.exploded'])).json.error.code).to.equal('invalid_events');
    const strict = { WEBHOOK_ALLOW_PRIVATE: '0' };
    for (const url of ['https://127.0.0.1/h', 'https://10.1.2.3/h', 'https://169.254.169.254/latest', 'https://[::1]/h', 'https://localhost/h']) {
      const res = await create(url, strict);
      expect(res.code, url).to.not.equal(0);
      expect(res.json.error.code, url).to.equal('private_address');
    }
    // The knob is ignored in production.
    const production = await create('https://127.0.0.1/h', { APP_ENV: 'production', WEBHOOK_ALLOW_PRIVATE: '1' });
    expect(production.json.error.code).to.equal('private_address');
  });

  it('pings an endpoint and lists the delivery history', async () => {
    const { WebhookReceiver } = await import('../support/webhook-receiver.js');
    const receiver = await new WebhookReceiver().start();
    try {
      const account = (await admin(['account', 'create', '--name', 'Pinged'])).json.id;
      const endpoint = (await admin(['webhook', 'create', '--account', account, '--url', receiver.url, '--env', 'live'])).json;
      const ping = await admin(['webhook', 'ping', '--id', endpoint.id]);
      expect(ping.code, JSON.stringify(ping.json)).to.equal(0);
      const [received] = await receiver.until((r) => r.length >= 1);
      expect(received!.body).to.deep.include({ type: 'ping', livemode: true, data: { endpoint: { id: endpoint.id, url: receiver.url, events: [] } } });
      expect(received!.body.id).to.equal(ping.json.eventId);
      expect(received!.headers['service-delivery']).to.equal(ping.json.deliveryId);
      await new Promise((r) => setTimeout(r, 300));
      const history = await admin(['webhook', 'deliveries', '--account', account]);
      expect(history.json.data).to.have.length(1);
      expect(history.json.data[0]).to.deep.include({
        id: ping.json.deliveryId,
        type: 'ping',
        status: 'delivered',
        attempts: 1,
        lastHttpStatus: 200,
        endpointId: endpoint.id,
      });
    } finally {
      await receiver.stop();
    }
  });

  it('shows and sets an account’s retention period within its bounds (audit-logged), and erases a final mailing’s personal data', async () => {
    const created = (await admin(['account', 'create', '--name', 'Retention SAS'])).json.id as string;
    const shown = await admin(['account', 'retention', '--account', created]);
    expect(shown).to.deep.equal({ code: 0, json: { accountId: created, retentionDays: 1827, minDays: 30, maxDays: 3653 } });
    const set = await admin(['account', 'retention', '--account', created, '--days', '365']);
    expect(set.json).to.deep.equal({ accountId: created, retentionDays: 365, previousDays: 1827, minDays: 30, maxDays: 3653 });
    expect((await stack().db('accounts').where({ id: created }).first('retention_days')).retention_days).to.equal(365);
    const logged = await stack().db('audit_log').where({ account_id: created, action: 'account.retention_changed' });
    expect(logged.map((e) => [e.actor_label, e.details])).to.deep.equal([['admin CLI', { from: 1827, to: 365 }]]);
    for (const days of ['29', '3654', '12.5', 'ten']) {
      const refused = await admin(['account', 'retention', '--account', created, '--days', days]);
      expect([refused.code, refused.json.error.code], days).to.deep.equal([1, 'invalid_arguments']);
    }
    expect((await admin(['account', 'retention', '--account', '00000000-0000-4000-8000-000000000000'])).json.error.code).to.equal('not_found');

    const key = (await admin(['key', 'create', '--account', created, '--mode', 'test'])).json.key as string;
    const mailing = (await call('POST', '/v1/mailings', { key, body: { mode: 'simple', letter: freeLetter, sender, recipient } })).body.id as string;
    const early = await admin(['mailing', 'erase', '--id', mailing]);
    expect([early.code, early.json.error.code]).to.deep.equal([2, 'mailing_not_final']);
    await call('POST', `/v1/test/mailings/${mailing}/advance`, { key, body: { step: 2 } });
    const erased = await admin(['mailing', 'erase', '--id', mailing]);
    expect(erased.code).to.equal(0);
    expect(erased.json).to.include({ mailingId: mailing, accountId: created, test: true, alreadyErased: false, proofPdfs: 1 });
    expect((await call('GET', `/v1/mailings/${mailing}`, { key })).body.recipient).to.deep.equal(['(effacé)']);
    expect((await admin(['mailing', 'erase', '--id', mailing])).json).to.include({ alreadyErased: true, erasedAt: erased.json.erasedAt });
    expect((await admin(['mailing', 'erase', '--id', '00000000-0000-4000-8000-000000000000'])).json.error.code).to.equal('not_found');
    expect((await admin(['mailing', 'erase', '--id', 'nope'])).json.error.code).to.equal('invalid_arguments');
    const [entry] = await stack().db('audit_log').where({ account_id: created, action: 'mailing.erased' });
    expect(entry).to.include({ target_id: mailing, actor_label: 'admin CLI' });
  });

  it('answers unknown commands and missing options with a JSON error and a non-zero exit', async () => {
    const unknown = await admin(['account', 'explode']);
    expect(unknown.code).to.equal(1);
    expect(unknown.json.error.code).to.equal('unknown_command');
    const missing = await admin(['balance', 'topup', '--account', accountId]);
    expect(missing.code).to.equal(1);
    expect(missing.json.error.code).to.equal('invalid_arguments');
    const noAccount = await admin(['key', 'create', '--account', '00000000-0000-4000-8000-000000000000', '--mode', 'test']);
    expect(noAccount.json.error.code).to.equal('not_found');
  });
});
