import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { chooseBrowser } from '../../activities/pdf/chromium.js';
import { startApiServer, type RunningApi } from '../../server/server.js';
import type { Config } from '../../lib/config.js';
import { stack } from './stack.js';
import { expectAccessible } from './axe.js';

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

export const PASSWORD = 'un mot de passe solide';

/**
 * A developer space for browser tests: a server of the API's own code on the test stack, its email
 * sent to a real SMTP server started here, and a browser (the one PDFs use) driven by puppeteer.
 * Call from `before`; `close()` from `after`.
 */
export async function startDashboard(configure: (config: Config) => Config = (config) => config) {
  const inbox: Mail[] = [];
  // While set, the SMTP server keeps each message unanswered until it resolves (holdMail).
  let held: Promise<void> | undefined;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void (held ?? Promise.resolve()).then(() => {
          inbox.push({ to: session.envelope.rcptTo[0]!.address, text: mailText(Buffer.concat(chunks).toString('utf8')) });
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const { config, db, local, temporal } = stack();
  const space: RunningApi = await startApiServer(
    {
      // Each browser context is a client of its own (X-Forwarded-For, below): the per-address budgets
      // of one test do not spend those of the next.
      config: configure({ ...config, trustedProxyHops: 1, mail: { ...config.mail, smtpUrl: `smtp://127.0.0.1:${smtpPort}` } }),
      db,
      databaseUrl: local.databaseUrl,
      temporal: temporal.client,
    },
    0,
    '127.0.0.1',
  );
  const base = `${space.url}/dashboard`;
  const { executablePath } = await chooseBrowser();
  const browser: Browser = await puppeteer.launch({
    executablePath,
    headless: 'shell',
    pipe: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
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

  /** A page in a new browser context, seen by the server as coming from a client address of its own. */
  /** Holds every message at the SMTP server (not yet accepted, not in the inbox) until the returned function is called. */
  function holdMail(): () => void {
    let release!: () => void;
    held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      held = undefined;
      release();
    };
  }

  /**
   * axe-core on every page a test opens (issue 56): each `page.goto` of a page made by withPage, and
   * each page `submit` leads to, fails the test on a serious or critical violation.
   */
  function checkEveryLoad(page: Page): void {
    const goto = page.goto.bind(page);
    page.goto = (async (...args: Parameters<Page['goto']>) => {
      const response = await goto(...args);
      await expectAccessible(page);
      return response;
    }) as Page['goto'];
  }

  async function withPage<T>(use: (page: Page, context: BrowserContext, address: string) => Promise<T>): Promise<T> {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      checkEveryLoad(page);
      const address = newAddress();
      await page.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
      return await use(page, context, address);
    } finally {
      await context.close();
    }
  }

  /** Fills the named inputs, clicks the button and answers the status of the page it leads to. */
  async function submit(page: Page, fields: Record<string, string>, button = 'main button[type=submit]'): Promise<number> {
    for (const [name, value] of Object.entries(fields)) {
      await page.$eval(`[name=${name}]`, (input, v) => ((input as unknown as { value: string }).value = v), value);
    }
    const [response] = await Promise.all([page.waitForNavigation(), page.click(button)]);
    await expectAccessible(page);
    return response!.status();
  }

  const heading = (page: Page): Promise<string> => page.$eval('h1', (h) => h.textContent!.trim());
  const alert = (page: Page): Promise<string> => page.$eval('[role=alert]', (p) => p.textContent!.trim());
  const newEmail = (): string => `dev-${randomUUID().slice(0, 8)}@example.fr`;
  /** A client address (IPv6 documentation range), different at each call. */
  const newAddress = (): string => `2001:db8::${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;

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

  /** A new confirmed, signed-in developer on `page`: their email and account id. */
  async function signedInDeveloper(page: Page): Promise<{ email: string; accountId: string }> {
    const email = newEmail();
    await signUpAndConfirm(page, email);
    expect(await signInAs(page, email)).to.equal(200);
    const user = await db('developer_users').where({ email }).first('account_id');
    return { email, accountId: user.account_id as string };
  }

  return {
    space,
    base,
    browser,
    inbox,
    waitForMail,
    holdMail,
    withPage,
    submit,
    heading,
    alert,
    newEmail,
    newAddress,
    signUpAndConfirm,
    signInAs,
    signedInDeveloper,
    async close(): Promise<void> {
      await browser.close().catch(() => undefined);
      await space.close().catch(() => undefined);
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}

export type Dashboard = Awaited<ReturnType<typeof startDashboard>>;
