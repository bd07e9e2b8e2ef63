import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { changeAccount } from '../../domain/access/accounts.js';
import { SIGNIN_FAILURES_PER_ACCOUNT, SIGNIN_FAILURES_PER_ADDRESS } from '../../domain/developers/throttle.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { createAccount as createTestAccount, spawnApiProcess } from '../support/api.js';
import { createApiKey } from '../../domain/access/keys.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { stack } from '../support/stack.js';

describe('developer space (browser, SMTP)', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;
  let space: Dashboard['space'];

  before(async () => {
    dashboard = await startDashboard();
    ({ base, space } = dashboard);
  });
  after(() => dashboard?.close());

  const withPage: Dashboard['withPage'] = (use) => dashboard.withPage(use);
  const submit: Dashboard['submit'] = (...args) => dashboard.submit(...args);
  const heading: Dashboard['heading'] = (page) => dashboard.heading(page);
  const alert: Dashboard['alert'] = (page) => dashboard.alert(page);
  const waitForMail: Dashboard['waitForMail'] = (...args) => dashboard.waitForMail(...args);
  const signUpAndConfirm: Dashboard['signUpAndConfirm'] = (...args) => dashboard.signUpAndConfirm(...args);
  const signInAs: Dashboard['signInAs'] = (...args) => dashboard.signInAs(...args);
  const newEmail = (): string => dashboard.newEmail();
  const api = (path: string, key: string, url = stack().api.url): Promise<Response> => fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${key}` } });

  it('sign-up → emailed confirmation → sign-in → a usable sandbox key → live key refused until live-enable → revoked key refused within a second', async () => {
    const email = newEmail();
    await withPage(async (page, context) => {
      await signUpAndConfirm(page, email);
      await signInAs(page, email);
      expect(new URL(page.url()).pathname).to.equal('/dashboard');
      const sandboxKey = await page.$eval('#new-key', (e) => e.textContent!.trim());
      expect(sandboxKey).to.match(/^svc_test_[0-9A-Za-z]{32}$/);
      expect(await page.$eval('#curl-example', (e) => e.textContent))
        .to.include(sandboxKey)
        .and.include(`${space.url}/v1/catalogue`);
      // The copy button's script runs under the CSP.
      await context.overridePermissions(space.url, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
      await page.click('button[data-copy=new-key]');
      await page.waitForFunction("document.querySelector('button[data-copy=new-key]').textContent === 'Copié'", { timeout: 5000 });
      expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(sandboxKey);
      expect((await api('/v1/catalogue', sandboxKey)).status).to.equal(200);

      // Shown once.
      await page.reload();
      expect(await page.$('#new-key')).to.equal(null);

      await page.goto(`${base}/cles`);
      const row = await page.$eval('tbody tr', (tr) =>
        Array.from(tr.querySelectorAll('td'), (td) => (td as { textContent: string | null }).textContent!.trim()),
      );
      expect(row[0]).to.equal(`svc_test_…${sandboxKey.slice(-4)}`);
      expect(row[1]).to.equal('test');
      expect(row[4]).to.not.equal('—'); // last used

      // A live key with two scopes.
      await page.click('input[name=mode][value=live]');
      await page.$$eval('input[name=scopes]', (boxes) =>
        boxes.forEach((b) => {
          const box = b as unknown as { value: string; checked: boolean };
          box.checked = ['catalogue:read', 'data:read'].includes(box.value);
        }),
      );
      await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/cles"] button[type=submit]')]);
      const liveKey = await page.$eval('#new-key', (e) => e.textContent!.trim());
      expect(liveKey).to.match(/^svc_live_/);
      const refused = await api('/v1/catalogue', liveKey);
      expect(refused.status).to.equal(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).to.equal('live_not_enabled');
      const user = await stack().db('developer_users').where({ email }).first('account_id');
      await changeAccount(stack().db, user.account_id, { liveEnabled: true });
      await sleep(300);
      expect((await api('/v1/catalogue', liveKey)).status).to.equal(200);
      const rows = await page.$$eval('tbody tr', (trs) => trs.map((tr) => tr.textContent));
      expect(rows[0])
        .to.include(`svc_live_…${liveKey.slice(-4)}`)
        .and.include('catalogue:read, data:read');

      // Revoke it: the stack's API (another server, its own key cache) refuses it within a second.
      await Promise.all([page.waitForNavigation(), page.click('tbody tr:first-child form button')]);
      const revokedAt = Date.now();
      let status = 0;
      while (Date.now() - revokedAt < 1000) {
        status = (await api('/v1/catalogue', liveKey)).status;
        if (status === 401) break;
        await sleep(50);
      }
      expect(status).to.equal(401);
      expect(await page.$eval('tbody tr:first-child', (tr) => tr.textContent)).to.include('révoquée');
      expect((await api('/v1/catalogue', sandboxKey)).status).to.equal(200);
    });
  });

  it('a test key can be shown again (sealed, recorded in the audit log); live keys, revoked keys and other accounts’ keys never', async () => {
    const { db } = stack();
    await withPage(async (page) => {
      const email = newEmail();
      await signUpAndConfirm(page, email);
      await signInAs(page, email);
      const sandboxKey = await page.$eval('#new-key', (e) => e.textContent!.trim());
      const { account_id: accountId } = await db('developer_users').where({ email }).first('account_id');
      const [stored] = await db('api_keys').where({ account_id: accountId });
      expect(stored.key_sealed).to.be.a('string').and.not.include(sandboxKey.slice(9));

      await page.goto(`${base}/cles`);
      await Promise.all([page.waitForNavigation(), page.click(`form[action="/dashboard/cles/${stored.id}/afficher"] button`)]);
      expect(await page.$eval('#revealed-key', (e) => e.textContent!.trim())).to.equal(sandboxKey);
      expect(await db('audit_log').where({ account_id: accountId, action: 'key.revealed', target_id: stored.id }).count({ n: '*' })).to.deep.equal([
        { n: '1' },
      ]);

      // A live key: shown once, no button, and the route refuses it.
      await page.goto(`${base}/cles`);
      await page.click('input[name=mode][value=live]');
      await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/cles"] button[type=submit]')]);
      const live = await db('api_keys').where({ account_id: accountId, mode: 'live' }).first('id', 'key_sealed');
      expect(live.key_sealed).to.equal(null);
      expect(await page.$(`form[action="/dashboard/cles/${live.id}/afficher"]`)).to.equal(null);
      const csrf = await page.$eval('input[name=_csrf]', (i) => (i as unknown as { value: string }).value);
      const cookie = `svc_dashboard=${(await page.cookies()).find((c) => c.name === 'svc_dashboard')!.value}`;
      const reveal = (id: string) =>
        fetch(`${base}/cles/${id}/afficher`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
          body: new URLSearchParams({ _csrf: csrf }).toString(),
        });
      expect((await reveal(live.id)).status).to.equal(404);
      // Another account's test key: 404, as for one that does not exist.
      const otherAccount = await createTestAccount();
      const other = await createApiKey(db, otherAccount.id, 'test', SCOPES, undefined, stack().config.secretKey);
      expect((await reveal(other.id)).status).to.equal(404);
      // Revoked: no longer shown.
      await Promise.all([page.waitForNavigation(), page.click(`form[action="/dashboard/cles/${stored.id}/revoquer"] button`)]);
      expect(await page.$(`form[action="/dashboard/cles/${stored.id}/afficher"]`)).to.equal(null);
      expect((await reveal(stored.id)).status).to.equal(404);
    });
  });

  it('a wrong password and an unknown email get the same answer; an account is throttled after repeated failures', async () => {
    const email = newEmail();
    await withPage(async (page) => {
      await signUpAndConfirm(page, email);
      expect(await signInAs(page, email, 'pas le bon mot de passe')).to.equal(401);
      const wrongPassword = await alert(page);
      expect(await signInAs(page, newEmail(), 'pas le bon mot de passe')).to.equal(401);
      expect(await alert(page)).to.equal(wrongPassword);
      for (let i = 1; i < SIGNIN_FAILURES_PER_ACCOUNT; i++) expect(await signInAs(page, email, 'encore faux')).to.equal(401);
      // Now even the right password is refused for a while.
      expect(await signInAs(page, email)).to.equal(429);
      expect(await alert(page)).to.include('Trop de tentatives');
    });
  });

  it('a client address is throttled after repeated failures, whatever the emails', async () => {
    // The page is a client address of its own (X-Forwarded-For): no other test spends its budget.
    await withPage(async (page) => {
      const email = newEmail();
      await signUpAndConfirm(page, email);
      for (let i = 0; i < SIGNIN_FAILURES_PER_ADDRESS; i++) expect(await signInAs(page, newEmail(), 'faux')).to.equal(401);
      expect(await signInAs(page, email)).to.equal(429);
    });
  });

  it('forms without the session’s CSRF token are refused (403) and change nothing; the API refuses the session cookie; the space refuses API keys', async () => {
    const email = newEmail();
    await withPage(async (page) => {
      await signUpAndConfirm(page, email);
      await signInAs(page, email);
      const key = await page.$eval('#new-key', (e) => e.textContent!.trim());
      const cookie = (await page.cookies()).find((c) => c.name === 'svc_dashboard')!;
      expect(cookie.httpOnly).to.equal(true);
      expect(cookie.sameSite).to.equal('Lax');
      expect(cookie.path).to.equal('/dashboard');
      const sessionCookie = `svc_dashboard=${cookie.value}`;
      const user = await stack().db('developer_users').where({ email }).first('account_id');
      const keyCount = async (): Promise<number> => Number((await stack().db('api_keys').where({ account_id: user.account_id }).count({ n: '*' }))[0]!.n);
      const before = await keyCount();
      const post = (body: string, withCookie = true): Promise<Response> =>
        fetch(`${base}/cles`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(withCookie ? { Cookie: sessionCookie } : {}) },
          body,
        });
      expect((await post('mode=test&scopes=catalogue:read')).status).to.equal(403);
      expect((await post('mode=test&scopes=catalogue:read&_csrf=wrong')).status).to.equal(403);
      const csrf = await page.$eval('input[name=_csrf]', (i) => (i as unknown as { value: string }).value);
      expect((await post(`mode=test&scopes=catalogue:read&_csrf=${csrf}`, false)).status).to.equal(403);
      expect(await keyCount()).to.equal(before);
      // The same token with the session: accepted (the refusals above were the token's).
      expect((await post(`mode=test&scopes=catalogue:read&_csrf=${encodeURIComponent(csrf)}`)).status).to.equal(302);
      expect(await keyCount()).to.equal(before + 1);

      const home = await fetch(base, { headers: { Cookie: sessionCookie } });
      expect(home.status).to.equal(200);
      expect(home.headers.get('content-security-policy')).to.include("script-src 'self'").and.include("default-src 'none'");
      const withCookie = await fetch(`${stack().api.url}/v1/catalogue`, { headers: { Cookie: sessionCookie } });
      expect(withCookie.status).to.equal(401);
      expect(((await withCookie.json()) as { error: { code: string } }).error.code).to.equal('invalid_api_key');
      const withKey = await fetch(base, { headers: { Authorization: `Bearer ${key}` }, redirect: 'manual' });
      expect(withKey.status).to.equal(401);
    });
  });

  it('password reset by emailed link: the same answer for an unknown email, the old password stops working, the link works once', async () => {
    const email = newEmail();
    await withPage(async (page) => {
      await signUpAndConfirm(page, email);
      await page.goto(`${base}/mot-de-passe-oublie`);
      expect(await submit(page, { email: newEmail() })).to.equal(200);
      const unknownAnswer = await heading(page);
      await page.goto(`${base}/mot-de-passe-oublie`);
      expect(await submit(page, { email })).to.equal(200);
      expect(await heading(page)).to.equal(unknownAnswer);
      const link = await waitForMail(email, /http:\/\/\S+\/dashboard\/nouveau-mot-de-passe\?token=\S+/);
      await page.goto(link);
      const newPassword = 'un tout nouveau mot de passe';
      expect(await submit(page, { password: newPassword })).to.equal(200);
      expect(await heading(page)).to.equal('Mot de passe changé');
      expect(await signInAs(page, email)).to.equal(401);
      expect(await signInAs(page, email, newPassword)).to.equal(200);
      expect(new URL(page.url()).pathname).to.equal('/dashboard');
      expect((await page.goto(link))!.status()).to.equal(400);
    });
  });

  it('outside APP_ENV=local the API process refuses to start without PUBLIC_URL (the emailed links need it)', async () => {
    const failure = await spawnApiProcess({ APP_ENV: 'preprod', PUBLIC_URL: '' }).then(
      async (started) => {
        await started.stop();
        return undefined;
      },
      (error: Error) => error.message,
    );
    expect(failure).to.include('PUBLIC_URL must be set');
    const started = await spawnApiProcess({ APP_ENV: 'preprod', PUBLIC_URL: 'https://api.example.fr' });
    await started.stop();
  });
});
