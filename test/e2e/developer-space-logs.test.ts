import { admin } from '../support/admin.js';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'puppeteer-core';
import { call, createAccount, createKey, eventually, expenseGroup } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { companyDirectory } from '../support/partner-server.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { createApiKey, revokeApiKey } from '../../domain/access/keys.js';
import { changeAccount } from '../../domain/access/accounts.js';
import { ADMIN_CLI } from '../../domain/access/audit.js';
import { REQUEST_LOG_RETENTION_DAYS, requestLogPage, type RequestLogEntry } from '../../domain/access/request-log.js';

interface LogRow {
  requestId: string;
  status: string;
  keyId: string;
  method: string;
  path: string;
}

describe('developer space: request log and audit log (browser)', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;

  before(async () => {
    dashboard = await startDashboard();
    ({ base } = dashboard);
  });
  after(() => dashboard?.close());

  const db = () => stack().db;
  const logRows = (page: Page): Promise<LogRow[]> =>
    page.$$eval('#request-log tbody tr', (trs) =>
      trs.map((tr) => ({
        requestId: tr.getAttribute('data-request-id')!,
        status: tr.getAttribute('data-status')!,
        keyId: tr.getAttribute('data-key-id')!,
        method: tr.querySelector('.method')!.textContent!,
        path: tr.querySelector('.path')!.textContent!,
      })),
    );
  /** The journal page with these filters, reloaded until it shows every one of `ids` (the log is written about every second). */
  async function journalShowing(page: Page, query: string, ids: string[], timeoutMs = 3000): Promise<LogRow[]> {
    const started = Date.now();
    for (;;) {
      const response = await page.goto(`${base}/journal${query}`);
      expect(response!.status()).to.equal(200);
      const rows = await logRows(page);
      if (ids.every((id) => rows.some((r) => r.requestId === id))) return rows;
      if (Date.now() - started > timeoutMs) throw new Error(`request log still without ${ids.filter((id) => !rows.some((r) => r.requestId === id))}`);
      await sleep(200);
    }
  }

  it('request log: the account’s calls appear within seconds (method, path, status, Request-Id), filter by key and status class, never another account’s, never a query string or a proof token', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const keyA = await createKey(accountId, 'test', [...SCOPES]);
      const keyB = await createKey(accountId, 'test', ['data:read']);
      const keyIds = await db()('api_keys').where({ account_id: accountId }).orderBy('created_at').select('id', 'last4');
      const keyBId = keyIds.find((k) => k.last4 === keyB.slice(-4))!.id as string;
      const other = await createAccount();

      const idOf = (r: { headers: Headers }): string => r.headers.get('request-id')!;
      const search = await call('GET', '/v1/search?q=resiliation%20secretinquery&mode=lexical', { key: keyA });
      expect(search.status).to.equal(200);
      const settle = await call('POST', '/v1/expenses/settle', { key: keyA, body: expenseGroup() });
      expect(settle.status).to.equal(200);
      const missing = await call('GET', `/v1/mailings/${randomUUID()}`, { key: keyA });
      expect(missing.status).to.equal(404);
      const noScope = await call('GET', '/v1/catalogue', { key: keyB });
      expect(noScope.status).to.equal(403);
      const otherCall = await call('GET', '/v1/catalogue', { key: other.testKey });
      expect(otherCall.status).to.equal(200);
      const unknownKey = await call('GET', '/v1/catalogue', { key: `svc_test_${'x'.repeat(32)}` });
      expect(unknownKey.status).to.equal(401);

      // A proof link: its token is in the body of an authenticated call and in the path of a public one.
      const mailing = await call('POST', '/v1/mailings', { key: keyA, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
      expect(mailing.status).to.equal(201);
      await call('POST', `/v1/test/mailings/${mailing.body.id}/advance`, { key: keyA, body: { step: 2 } });
      const link = await eventually(
        () => call('GET', `/v1/mailings/${mailing.body.id}/proofs/filing`, { key: keyA }),
        (r) => r.status === 200,
        10_000,
        200,
      );
      const token = new URL(link.body.url).pathname.split('/').pop()!;
      expect((await call('GET', `/v1/proof-files/${token}`, { key: keyA })).status).to.equal(200);

      const mine = [search, settle, missing, noScope, link].map(idOf);
      const started = Date.now();
      const rows = await journalShowing(page, '', mine);
      expect(Date.now() - started, 'shown within a couple of seconds').to.be.below(3000);
      const row = (id: string): LogRow => rows.find((r) => r.requestId === id)!;
      expect(row(idOf(search))).to.deep.include({ method: 'GET', path: '/v1/search', status: '200' });
      expect(row(idOf(settle))).to.deep.include({ method: 'POST', path: '/v1/expenses/settle', status: '200' });
      expect(row(idOf(missing))).to.deep.include({ method: 'GET', status: '404' });
      expect(row(idOf(noScope))).to.deep.include({ method: 'GET', path: '/v1/catalogue', status: '403', keyId: keyBId });
      expect(row(idOf(link))).to.deep.include({ path: `/v1/mailings/${mailing.body.id}/proofs/filing`, status: '200' });
      // Newest first.
      expect(rows.findIndex((r) => r.requestId === idOf(link))).to.be.below(rows.findIndex((r) => r.requestId === idOf(search)));
      // The request id is shown as the developer would quote it.
      expect(await page.$eval(`#r-${idOf(search)}`, (e) => e.textContent)).to.equal(idOf(search));

      const html = await page.content();
      expect(html).not.to.include(idOf(otherCall));
      expect(html).not.to.include(idOf(unknownKey));
      expect(html).not.to.include('secretinquery');
      expect(html).not.to.include(token);
      expect(
        await db()('api_request_log')
          .whereRaw('position(?::bytea in calls) > 0', [Buffer.from(token.slice(0, 20))])
          .count({ n: '*' }),
      ).to.deep.equal([{ n: '0' }]);
      const otherRow = await eventually(
        () =>
          db()('api_request_log')
            .whereRaw('position(?::bytea in calls) > 0', [Buffer.from(idOf(otherCall))])
            .first('account_id'),
        (found) => found !== undefined,
      );
      expect(otherRow).to.deep.equal({ account_id: other.id });

      // Filters: one key; one status class.
      const onlyB = await journalShowing(page, `?cle=${keyBId}`, [idOf(noScope)]);
      expect(onlyB.every((r) => r.keyId === keyBId)).to.equal(true);
      expect(onlyB.map((r) => r.requestId)).not.to.include(idOf(search));
      const clientErrors = await journalShowing(page, '?statut=4xx', [idOf(missing), idOf(noScope)]);
      expect(clientErrors.every((r) => r.status.startsWith('4'))).to.equal(true);
      const successes = await journalShowing(page, '?statut=2xx', [idOf(search), idOf(settle)]);
      expect(successes.every((r) => r.status.startsWith('2'))).to.equal(true);
      expect(await page.$eval('#statut', (s) => (s as unknown as { value: string }).value)).to.equal('2xx');

      // Another account's key, an unknown class, a forged cursor: refused pages, never a query of someone else's log.
      const otherKeyId = (await db()('api_keys').where({ account_id: other.id }).first('id')).id as string;
      expect((await page.goto(`${base}/journal?cle=${otherKeyId}`))!.status()).to.equal(400);
      expect((await page.goto(`${base}/journal?statut=6xx`))!.status()).to.equal(400);
      expect((await page.goto(`${base}/journal?apres=v1.abc`))!.status()).to.equal(400);

      // Pages of 50, newest first, with no overlap.
      const more: string[] = [];
      for (let i = 0; i < 50; i++) more.push(idOf(await call('GET', '/v1/catalogue', { key: keyA, headers: { 'If-None-Match': 'x' } })));
      const first = await journalShowing(page, '', [more[49]!, more[1]!]);
      expect(first).to.have.length(50);
      const next = await page.$eval('#next-page', (a) => a.getAttribute('href')!);
      await page.goto(`http://${new URL(base).host}${next}`);
      const second = await logRows(page);
      expect(second.length).to.be.greaterThan(0);
      expect(second.filter((r) => first.some((f) => f.requestId === r.requestId))).to.deep.equal([]);
      expect(second.map((r) => r.requestId)).to.include(idOf(search));
    });
  });

  it('request log: rows older than 7 days are neither shown nor kept once the maintenance schedule has run', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const key = await db()('api_keys').where({ account_id: accountId }).first('id');
      // A batch of the API as it is stored: one row per key, a line per call.
      const batch = (id: string, daysAgo: number) => {
        const at = Date.now() - daysAgo * 24 * 3_600_000;
        return {
          account_id: accountId,
          key_id: key.id,
          mode: 'test',
          first_at: new Date(at),
          last_at: new Date(at),
          call_count: 1,
          calls: Buffer.from(`${id}\t${at}\tGET\t200\t1.5\t/v1/catalogue`),
        };
      };
      const old = randomUUID();
      const recent = randomUUID();
      await db()('api_request_log').insert([batch(old, REQUEST_LOG_RETENTION_DAYS + 1), batch(recent, REQUEST_LOG_RETENTION_DAYS - 1)]);
      const rows = await journalShowing(page, '', [recent]);
      expect(rows.map((r) => r.requestId)).not.to.include(old);

      await stack().temporal.client.schedule.getHandle('maintenance-purge').trigger();
      const left = await eventually(
        async () =>
          ((await db()('api_request_log').where({ account_id: accountId }).pluck('calls')) as Buffer[]).map((calls) => calls.toString().split('\t')[0]),
        (ids) => !ids.includes(old),
        20_000,
        200,
      );
      expect(left).to.deep.equal([recent]);
    });
  });

  it('request log pages: batches of several processes overlapping in time are walked newest first, with neither gap nor duplicate, filtered or not', async () => {
    const account = await createAccount();
    const keys = (await db()('api_keys').where({ account_id: account.id }).pluck('id')) as string[];
    // 40 batches of 2 keys, as 3 API processes would write them: each spans a few seconds and overlaps the others.
    const start = Date.now() - 3_600_000;
    const all: { requestId: string; keyId: string; status: number; at: number }[] = [];
    const batches = [];
    for (let b = 0; b < 40; b++) {
      const keyId = keys[b % 2]!;
      const calls = Array.from({ length: 15 }, (_, i) => ({
        requestId: randomUUID(),
        keyId,
        status: [200, 201, 404, 500][(b + i) % 4]!,
        // Several calls share a millisecond: the request id orders them.
        at: start + (b % 3) * 200 + Math.floor(b / 3) * 1000 + (i % 5) * 300,
      }));
      all.push(...calls);
      const ats = calls.map((c) => c.at);
      batches.push({
        account_id: account.id,
        key_id: keyId,
        mode: 'test',
        first_at: new Date(Math.min(...ats)),
        last_at: new Date(Math.max(...ats)),
        call_count: calls.length,
        calls: Buffer.from(calls.map((c) => `${c.requestId}\t${c.at}\tGET\t${c.status}\t0.5\t/v1/catalogue`).join('\n')),
      });
    }
    await db()('api_request_log').insert(batches);
    const newestFirst = (x: { at: number; requestId: string }, y: { at: number; requestId: string }) => y.at - x.at || (y.requestId > x.requestId ? 1 : -1);
    const walk = async (options: { keyId?: string; statusClass?: '2xx' | '4xx' | '5xx'; maxBatches?: number }): Promise<RequestLogEntry[]> => {
      const seen: RequestLogEntry[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 200; pages++) {
        const page = await requestLogPage(db(), stack().config.secretKey, account.id, { limit: 7, cursor, ...options });
        seen.push(...page.entries);
        if (!page.nextCursor) return seen;
        cursor = page.nextCursor;
      }
      throw new Error('no last page');
    };
    const ids = (entries: { requestId: string }[]) => entries.map((e) => e.requestId);
    expect(ids(await walk({}))).to.deep.equal(ids([...all].sort(newestFirst)));
    expect(ids(await walk({ keyId: keys[1] }))).to.deep.equal(ids(all.filter((c) => c.keyId === keys[1]).sort(newestFirst)));
    expect(ids(await walk({ statusClass: '4xx' }))).to.deep.equal(ids(all.filter((c) => c.status === 404).sort(newestFirst)));
    // Pages that stop early (few batches read per page): the same calls, in the same order.
    expect(ids(await walk({ statusClass: '5xx', maxBatches: 8 }))).to.deep.equal(ids(all.filter((c) => c.status === 500).sort(newestFirst)));
    // Another account's cursor is refused.
    const mine = await requestLogPage(db(), stack().config.secretKey, account.id, { limit: 7 });
    const other = await createAccount();
    let refused: unknown;
    await requestLogPage(db(), stack().config.secretKey, other.id, { limit: 7, cursor: mine.nextCursor! }).catch((error: unknown) => (refused = error));
    expect((refused as { code?: string }).code).to.equal('invalid_cursor');
  });

  it('audit log: key, webhook and access changes with their actor (the developer and their address, or the admin CLI), append-only, never another account’s', async () => {
    const { db: knex } = stack();
    companyDirectory.reset();
    await knex('partner_cache').where({ key: 'company:35600000000048' }).delete();
    await dashboard.withPage(async (page, _context, address) => {
      const { email, accountId } = await dashboard.signedInDeveloper(page);
      const other = await createAccount();

      // A key created and revoked from the keys page.
      await page.goto(`${base}/cles`);
      await page.click('input[name=mode][value=test]');
      await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/cles"] button[type=submit]')]);
      const newKey = await page.$eval('#new-key', (e) => e.textContent!.trim());
      const keyId = (
        await knex('api_keys')
          .where({ account_id: accountId, last4: newKey.slice(-4) })
          .first('id')
      ).id as string;
      await Promise.all([page.waitForNavigation(), page.click(`tr[data-key-id="${keyId}"] form[action$="/revoquer"] button`)]);

      // A webhook declared, its secret rotated, then deleted.
      await page.goto(`${base}/webhooks`);
      await page.$eval('#url', (input) => ((input as unknown as { value: string }).value = 'https://127.0.0.1:8443/hooks'));
      await page.click('input[name=env][value=test]');
      await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/webhooks"] button[type=submit]')]);
      const endpointId = new URL(page.url()).searchParams.get('adresse')!;
      await Promise.all([page.waitForNavigation(), page.click(`form[action="/dashboard/webhooks/${endpointId}/secret"] button`)]);
      await page.goto(`${base}/webhooks/${endpointId}/supprimer`);
      await Promise.all([page.waitForNavigation(), page.click(`form[action="/dashboard/webhooks/${endpointId}/supprimer"] button`)]);

      // Production requested, then opened by an operator.
      await page.goto(`${base}/production`);
      expect(
        await dashboard.submit(page, {
          siret: '35600000000048',
          legalName: '',
          address: '',
          useCase: 'Envoi de lettres recommandées de résiliation pour nos clients.',
        }),
      ).to.equal(200);
      expect((await admin(['account', 'live-enable', '--account', accountId])).code).to.equal(0);
      // A repeated command changes nothing and records nothing.
      expect((await admin(['account', 'live-enable', '--account', accountId])).code).to.equal(0);
      const cliKey = await admin(['key', 'create', '--account', accountId, '--mode', 'live']);
      expect((await admin(['key', 'revoke', '--key', cliKey.json.id])).code).to.equal(0);
      expect((await admin(['key', 'revoke', '--key', cliKey.json.id])).code).to.equal(0);

      await page.goto(`${base}/audit`);
      expect(await dashboard.heading(page)).to.equal('Journal d’audit');
      const entries = await page.$$eval('#audit-log tbody tr', (trs) =>
        trs.map((tr) => ({
          action: tr.getAttribute('data-action')!,
          target: tr.getAttribute('data-target-id')!,
          actor: tr.querySelector('.actor')!.textContent!.trim(),
          address: tr.querySelector('.address')!.textContent!.trim(),
          what: tr.querySelector('.target')!.textContent!.trim(),
        })),
      );
      expect(entries.slice(0, 3).map((e) => e.action)).to.deep.equal(['key.revoked', 'key.created', 'account.live_enabled']);
      // The request and the service's directory check share their transaction: their order is not asserted.
      expect(entries.slice(3, 5).map((e) => e.action)).to.have.members(['production.requested', 'production.checked']);
      const checked = entries.find((e) => e.action === 'production.checked')!;
      expect(checked).to.deep.include({ actor: 'le service', address: '—', what: 'SIRET 35600000000048' });
      entries.splice(entries.indexOf(checked), 1);
      expect(entries.slice(0, 9).map((e) => e.action)).to.deep.equal([
        'key.revoked',
        'key.created',
        'account.live_enabled',
        'production.requested',
        'webhook.deleted',
        'webhook.secret_rotated',
        'webhook.created',
        'key.revoked',
        'key.created',
      ]);
      // The first sign-in and the sandbox key it creates may share a millisecond: their order is not asserted.
      expect(entries.slice(9).map((e) => e.action)).to.have.members(['key.created', 'signin.succeeded']);
      const developer = { actor: email, address };
      const operator = { actor: 'opérateur (admin CLI)', address: '—' };
      expect(entries[0]).to.deep.include({ ...operator, target: cliKey.json.id, what: `svc_live_…${cliKey.json.key.slice(-4)}` });
      expect(entries[1]).to.deep.include({ ...operator, target: cliKey.json.id });
      expect(entries[2]).to.deep.include({ ...operator, target: accountId });
      expect(entries[3]).to.deep.include({ ...developer, what: 'SIRET 35600000000048' });
      for (const e of entries.slice(4, 7)) expect(e).to.deep.include({ ...developer, target: endpointId, what: 'https://127.0.0.1:8443/hooks' });
      expect(entries[7]).to.deep.include({ ...developer, target: keyId, what: `svc_test_…${newKey.slice(-4)}` });
      expect(entries[8]).to.deep.include({ ...developer, target: keyId });
      // The first sandbox key, created by the service at the first sign-in.
      expect(entries.slice(9).find((e) => e.action === 'key.created')).to.deep.include({ actor: 'le service', address: '—' });
      expect(entries.slice(9).find((e) => e.action === 'signin.succeeded')).to.deep.include(developer);

      const html = await page.content();
      expect(html).not.to.include(newKey).and.not.to.include(cliKey.json.key).and.not.to.include('whsec_');
      const otherKey = await knex('api_keys').where({ account_id: other.id }).first('id');
      expect(html).not.to.include(otherKey.id);

      // Append-only.
      let refused: unknown;
      await knex('audit_log')
        .where({ account_id: accountId })
        .update({ action: 'key.created' })
        .catch((error: unknown) => (refused = error));
      expect(String(refused)).to.include('append-only');
      refused = undefined;
      await knex('audit_log')
        .where({ account_id: accountId })
        .delete()
        .catch((error: unknown) => (refused = error));
      expect(String(refused)).to.include('append-only');
    });
  });

  it('audit log: a change whose transaction fails leaves no entry, and a change made twice at once is recorded once', async () => {
    const { db: knex } = stack();
    const account = await createAccount({ liveEnabled: false });
    const entries = () => knex('audit_log').where({ account_id: account.id }).orderBy('created_at').pluck('action');
    const before = await entries();

    // The change and its entry commit together: a transaction that fails after them takes both back.
    let keyId: string | undefined;
    const failed = await knex
      .transaction(async (trx) => {
        keyId = (await createApiKey(trx, account.id, 'live', [...SCOPES], ADMIN_CLI)).id;
        await changeAccount(trx, account.id, { liveEnabled: true }, ADMIN_CLI);
        expect(await trx('audit_log').where({ account_id: account.id }).count({ n: '*' })).to.deep.equal([{ n: String(before.length + 2) }]);
        await trx.raw('SELECT 1 / 0');
      })
      .then(
        () => 'committed',
        (error: Error) => error.message,
      );
    expect(failed).to.include('division by zero');
    expect(await knex('api_keys').where({ id: keyId }).first()).to.equal(undefined);
    expect((await knex('accounts').where({ id: account.id }).first('live_enabled')).live_enabled).to.equal(false);
    expect(await entries()).to.deep.equal(before);

    // A key revoked twice at once: one revocation, one entry.
    const { id } = await createApiKey(knex, account.id, 'test', [...SCOPES], ADMIN_CLI);
    const [a, b] = await Promise.all([revokeApiKey(knex, id, {}, ADMIN_CLI), revokeApiKey(knex, id, {}, ADMIN_CLI)]);
    expect(a!.revokedAt.getTime()).to.equal(b!.revokedAt.getTime());
    expect(await entries()).to.deep.equal([...before, 'key.created', 'key.revoked']);
  });
});
