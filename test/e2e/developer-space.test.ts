import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { chooseBrowser } from '../../activities/pdf/chromium.js';
import { startApiServer, type RunningApi } from '../../api/server.js';
import { changeAccount } from '../../domain/access/accounts.js';
import { SIGNIN_FAILURES_PER_ACCOUNT, SIGNIN_FAILURES_PER_ADDRESS } from '../../domain/developers/throttle.js';
import { stack } from '../support/stack.js';

interface Mail {
  to: string;
  text: string;
}

/** The text of a nodemailer message: one part, base64 (lib/mailer.ts). */
function mailText(raw: string): string {
  const [headers = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n');
  if (!/Content-Transfer-Encoding: base64/i.test(headers)) return `unexpected encoding: ${headers}`;
  return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
}

const PASSWORD = 'un mot de passe solide';

describe('developer space (browser, SMTP)', function () {
  this.timeout(180_000);
  let smtp: SMTPServer;
  let space: RunningApi;
  let browser: Browser;
  const inbox: Mail[] = [];
  let base: string;

  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo[0]!.address, text: mailText(Buffer.concat(chunks).toString('utf8')) });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    const { config, db, local, temporal } = stack();
    // A second process-like server of the same code, its email sent to this test's SMTP server.
    space = await startApiServer(
      {
        config: { ...config, mail: { ...config.mail, smtpUrl: `smtp://127.0.0.1:${smtpPort}` } },
        db,
        databaseUrl: local.databaseUrl,
        temporal: temporal.client,
      },
      0,
      '127.0.0.1',
    );
    base = `${space.url}/dashboard`;
    const { executablePath } = await chooseBrowser();
    browser = await puppeteer.launch({ executablePath, headless: 'shell', pipe: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await space?.close().catch(() => undefined);
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  async function waitForMail(to: string, pattern: RegExp): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const mail = inbox.find((m) => m.to === to && pattern.test(m.text));
      if (mail) {
        inbox.splice(inbox.indexOf(mail), 1);
        return pattern.exec(mail.text)![0];
      }
      await sleep(100);
    }
    throw new Error(`no email to ${to} matching ${pattern} in ${JSON.stringify(inbox)}`);
  }

  async function withPage<T>(use: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    const context = await browser.createBrowserContext();
    try {
      return await use(await context.newPage(), context);
    } finally {
      await context.close();
    }
  }

  async function submit(page: Page, fields: Record<string, string>, button = 'main button[type=submit]'): Promise<number> {
    for (const [name, value] of Object.entries(fields)) {
      await page.$eval(`input[name=${name}]`, (input, v) => ((input as unknown as { value: string }).value = v), value);
    }
    const [response] = await Promise.all([page.waitForNavigation(), page.click(button)]);
    return response!.status();
  }

  const heading = (page: Page): Promise<string> => page.$eval('h1', (h) => h.textContent!.trim());
  const alert = (page: Page): Promise<string> => page.$eval('[role=alert]', (p) => p.textContent!.trim());

  async function signUpAndConfirm(page: Page, email: string): Promise<void> {
    await page.goto(`${base}/inscription`);
    expect(await submit(page, { email, password: PASSWORD })).to.equal(200);
    expect(await heading(page)).to.equal('Vérifiez votre boîte mail');
    const link = await waitForMail(email, /http:\/\/\S+\/dashboard\/confirmation\?token=\S+/);
    await page.goto(link);
    expect(await heading(page)).to.equal('Adresse confirmée');
  }

  async function signInAs(page: Page, email: string, password = PASSWORD): Promise<number> {
    await page.goto(`${base}/connexion`);
    return submit(page, { email, password });
  }

  const api = (path: string, key: string, url = stack().api.url): Promise<Response> => fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const newEmail = (): string => `dev-${randomUUID().slice(0, 8)}@example.fr`;

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
    const { db } = stack();
    await db('developer_signin_failures').where('subject', 'like', 'ip:%').delete();
    try {
      await withPage(async (page) => {
        const email = newEmail();
        await signUpAndConfirm(page, email);
        for (let i = 0; i < SIGNIN_FAILURES_PER_ADDRESS; i++) expect(await signInAs(page, newEmail(), 'faux')).to.equal(401);
        expect(await signInAs(page, email)).to.equal(429);
      });
    } finally {
      await db('developer_signin_failures').where('subject', 'like', 'ip:%').delete();
    }
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
});
