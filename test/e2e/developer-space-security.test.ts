import { expect } from 'chai';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  EMAILS_PER_ADDRESS,
  EMAILS_PER_RECIPIENT,
  HASHES_PER_ADDRESS,
  SIGNIN_FAILURES_PER_ACCOUNT,
  SIGNIN_FAILURES_PER_ADDRESS,
} from '../../domain/developers/throttle.js';
import { startDashboard, PASSWORD, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';

/** The guards of the developer space's account pages under load and against forged requests (issue 25). */
describe('developer space: sign-in limits, email and hash budgets, reset links, common passwords', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;

  before(async () => {
    dashboard = await startDashboard();
    ({ base } = dashboard);
  });
  after(() => dashboard?.close());

  interface Form {
    cookie: string;
    csrf: string;
  }
  interface Answer {
    status: number;
    text: string;
    location: string | null;
  }

  /** A new anonymous session and its CSRF token, from a form page, as client `address`. */
  async function openForm(address: string, path = '/connexion'): Promise<Form> {
    const response = await fetch(`${base}${path}`, { headers: { 'X-Forwarded-For': address } });
    const cookie = /svc_dashboard=[^;]+/.exec(response.headers.get('set-cookie') ?? '')![0];
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await response.text())![1]!;
    return { cookie, csrf };
  }

  async function post(path: string, form: Form, address: string, fields: Record<string, string>): Promise<Answer> {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: form.cookie, 'X-Forwarded-For': address },
      body: new URLSearchParams({ ...fields, _csrf: form.csrf }).toString(),
    });
    return { status: response.status, text: await response.text(), location: response.headers.get('location') };
  }

  /** Posts `fields` once per entry, all at once, each with a session of its own. */
  async function postTogether(path: string, address: string, each: Record<string, string>[]): Promise<Answer[]> {
    const forms = await Promise.all(each.map(() => openForm(address, path)));
    return Promise.all(each.map((fields, i) => post(path, forms[i]!, address, fields)));
  }

  const count = (answers: Answer[], status: number): number => answers.filter((a) => a.status === status).length;
  const alertOf = (page: string): string => /role="alert"[^>]*>([^<]*)</.exec(page)?.[1]?.trim() ?? '';

  /** Waits until every queued email has been handed to the SMTP server. */
  async function outboxDrained(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const [{ n }] = await stack().db('developer_outbox').count({ n: '*' });
      if (Number(n) === 0) return;
      await sleep(50);
    }
    throw new Error('the outbox was not emptied');
  }
  const mailsTo = (to: string, pattern: RegExp): number => dashboard.inbox.filter((m) => m.to === to && pattern.test(m.text)).length;

  /** A confirmed developer, signed up from an address of their own: their email. */
  async function developer(): Promise<string> {
    return dashboard.withPage(async (page) => {
      const email = dashboard.newEmail();
      await dashboard.signUpAndConfirm(page, email);
      return email;
    });
  }

  it('believes only the address our proxy appended to X-Forwarded-For: sign-in failures sent with a new forged address each are counted for the real one', async () => {
    const address = dashboard.newAddress();
    const run = Date.now().toString(36);
    const signIn = async (forwardedFor: string, i: number): Promise<number> =>
      (await post('/connexion', await openForm(forwardedFor), forwardedFor, { email: `personne-${i}-${run}@example.fr`, password: 'faux' })).status;
    // One proxy in front (the harness's setting): what the client wrote is to the left of what it appended.
    const forged = (i: number): string => `198.18.${i >> 8}.${(i & 255) + 1}, ${address}`;
    for (let i = 0; i < SIGNIN_FAILURES_PER_ADDRESS; i++) expect(await signIn(forged(i), i), `failure ${i + 1}`).to.equal(401);
    expect(await signIn(forged(SIGNIN_FAILURES_PER_ADDRESS), SIGNIN_FAILURES_PER_ADDRESS)).to.equal(429);
    // Another client naming the throttled address to the left of its own is counted as itself.
    expect(await signIn(`${address}, ${dashboard.newAddress()}`, SIGNIN_FAILURES_PER_ADDRESS + 1)).to.equal(401);
  });

  it('40 sign-ins sent at once for one email: at most the limit of wrong passwords are checked, the others get 429, whatever the password', async () => {
    const email = await developer();
    const address = dashboard.newAddress();
    const attempts = Array.from({ length: 40 }, (_, i) => ({ email, password: i === 20 ? PASSWORD : `mauvais mot de passe ${i}` }));
    const answers = await postTogether('/connexion', address, attempts);
    const user = await stack().db('developer_users').where({ email }).first('id');
    const [{ n: failures }] = await stack().db('audit_log').where({ action: 'signin.failed', target_id: user.id }).count({ n: '*' });
    expect(Number(failures)).to.be.at.most(SIGNIN_FAILURES_PER_ACCOUNT);
    expect(count(answers, 401)).to.be.at.most(SIGNIN_FAILURES_PER_ACCOUNT);
    // The right password, if it came in among the first, gives its place back: one more may be checked.
    expect(count(answers, 429)).to.be.at.least(40 - SIGNIN_FAILURES_PER_ACCOUNT - 1);
    expect(count(answers, 401) + count(answers, 429) + count(answers, 302)).to.equal(40);
    const throttled = answers.find((a) => a.status === 429)!;
    expect(alertOf(throttled.text)).to.include('Trop de tentatives');
  });

  it('40 sign-ins sent at once from one address, each for another email: at most the address’s limit are checked', async () => {
    const address = dashboard.newAddress();
    const answers = await postTogether(
      '/connexion',
      address,
      Array.from({ length: 40 }, () => ({ email: dashboard.newEmail(), password: 'pas le bon mot de passe' })),
    );
    expect(count(answers, 401)).to.be.at.most(SIGNIN_FAILURES_PER_ADDRESS);
    expect(count(answers, 429)).to.be.at.least(40 - SIGNIN_FAILURES_PER_ADDRESS);
  });

  it('emails are bounded per recipient, whatever the page (reset, sign-up of a taken address, sign-in unconfirmed); the answer does not change', async () => {
    // 10 reset requests for one account, each from another address.
    const email = await developer();
    await outboxDrained();
    const resets = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const address = dashboard.newAddress();
        return post('/mot-de-passe-oublie', await openForm(address, '/mot-de-passe-oublie'), address, { email });
      }),
    );
    expect(resets.map((a) => a.status)).to.deep.equal(Array(10).fill(200));
    expect(new Set(resets.map((a) => alertOf(a.text))).size).to.equal(1);
    await outboxDrained();
    // Its confirmation took one of the hour's emails.
    expect(mailsTo(email, /nouveau-mot-de-passe/)).to.equal(EMAILS_PER_RECIPIENT - 1);

    // 10 sign-ups with someone else's address.
    const taken = await developer();
    await outboxDrained();
    const signUps = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const address = dashboard.newAddress();
        return post('/inscription', await openForm(address, '/inscription'), address, { email: taken, password: 'un autre mot de passe solide' });
      }),
    );
    expect(signUps.map((a) => a.status)).to.deep.equal(Array(10).fill(200));
    await outboxDrained();
    expect(mailsTo(taken, /qui en a déjà un/)).to.equal(EMAILS_PER_RECIPIENT - 1);

    // 10 sign-ins with the right password to an account not confirmed yet.
    const unconfirmed = dashboard.newEmail();
    const address = dashboard.newAddress();
    expect((await post('/inscription', await openForm(address, '/inscription'), address, { email: unconfirmed, password: PASSWORD })).status).to.equal(200);
    // One after the other: attempts sent together would be refused past the email's 5 (they count while checked).
    const signIns: Answer[] = [];
    for (let i = 0; i < 10; i++) {
      const from = dashboard.newAddress();
      signIns.push(await post('/connexion', await openForm(from), from, { email: unconfirmed, password: PASSWORD }));
    }
    expect(signIns.map((a) => a.status)).to.deep.equal(Array(10).fill(403));
    await outboxDrained();
    expect(mailsTo(unconfirmed, /confirmation\?token=/)).to.equal(EMAILS_PER_RECIPIENT);
  });

  it('emails are bounded per client address, and so are password hashes (sign-ups sent at once: 429 past the budget)', async () => {
    const address = dashboard.newAddress();
    const emails = Array.from({ length: HASHES_PER_ADDRESS + 10 }, () => dashboard.newEmail());
    const answers = await postTogether(
      '/inscription',
      address,
      emails.map((email) => ({ email, password: PASSWORD })),
    );
    expect(count(answers, 200)).to.equal(HASHES_PER_ADDRESS);
    expect(count(answers, 429)).to.equal(10);
    expect(alertOf(answers.find((a) => a.status === 429)!.text)).to.equal('Trop de demandes depuis votre adresse. Réessayez dans 15 minutes.');
    await outboxDrained();
    expect(emails.map((email) => mailsTo(email, /confirmation\?token=/)).reduce((a, b) => a + b)).to.equal(EMAILS_PER_ADDRESS);
  });

  it('a new password voids every reset link sent before and closes every session of the user', async () => {
    const email = await developer();
    await dashboard.withPage(async (page) => {
      expect(await dashboard.signInAs(page, email)).to.equal(200);
      const address = dashboard.newAddress();
      for (let i = 0; i < 2; i++) await post('/mot-de-passe-oublie', await openForm(address, '/mot-de-passe-oublie'), address, { email });
      const first = await dashboard.waitForMail(email, /http:\/\/\S+\/dashboard\/nouveau-mot-de-passe\?token=\S+/);
      const second = await dashboard.waitForMail(email, /http:\/\/\S+\/dashboard\/nouveau-mot-de-passe\?token=\S+/);
      const token = (link: string): string => new URL(link).searchParams.get('token')!;

      const changed = await post('/nouveau-mot-de-passe', await openForm(address, '/mot-de-passe-oublie'), address, {
        token: token(second),
        password: 'un tout nouveau mot de passe',
      });
      expect(changed.status).to.equal(200);
      // The first link no longer opens the form nor sets a password.
      expect((await fetch(first)).status).to.equal(400);
      const again = await post('/nouveau-mot-de-passe', await openForm(address, '/mot-de-passe-oublie'), address, {
        token: token(first),
        password: 'encore un autre mot de passe',
      });
      expect(again.status).to.equal(400);
      expect(alertOf(again.text)).to.equal('Ce lien est invalide, expiré ou déjà utilisé.');
      // The browser's session is closed.
      await page.goto(`${base}/cles`);
      expect(new URL(page.url()).pathname).to.equal('/dashboard/connexion');
      expect(await dashboard.signInAs(page, email, 'un tout nouveau mot de passe')).to.equal(200);
    });
  });

  it('common passwords are refused at sign-up and reset, whatever their case, with a French message', async () => {
    const address = dashboard.newAddress();
    for (const password of ['1234567890', 'azertyuiop', 'motdepasse', 'password123', 'AzertyUIOP', 'MotDePasse']) {
      const answer = await post('/inscription', await openForm(address, '/inscription'), address, { email: dashboard.newEmail(), password });
      expect(answer.status, password).to.equal(400);
      expect(alertOf(answer.text), password).to.include('mots de passe courants ou divulgués');
    }
    const email = await developer();
    await post('/mot-de-passe-oublie', await openForm(address, '/mot-de-passe-oublie'), address, { email });
    const link = await dashboard.waitForMail(email, /http:\/\/\S+\/dashboard\/nouveau-mot-de-passe\?token=\S+/);
    const refused = await post('/nouveau-mot-de-passe', await openForm(address, '/mot-de-passe-oublie'), address, {
      token: new URL(link).searchParams.get('token')!,
      password: 'MOTDEPASSE',
    });
    expect(refused.status).to.equal(400);
    expect(alertOf(refused.text)).to.include('mots de passe courants ou divulgués');
  });

  it('emailed links come from the configuration, never from a forged Host header', async () => {
    const email = await developer();
    const { port } = new URL(dashboard.space.url);
    /** A request with its own Host header (fetch does not let one be set). */
    const raw = (
      method: string,
      path: string,
      headers: Record<string, string>,
      body = '',
    ): Promise<{ status: number; headers: Record<string, unknown>; text: string }> =>
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method, path: `/dashboard${path}`, headers: { Host: 'evil.example', ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const page = await raw('GET', '/mot-de-passe-oublie', {});
    const cookie = /svc_dashboard=[^;]+/.exec(String(page.headers['set-cookie']))![0];
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const answer = await raw(
      'POST',
      '/mot-de-passe-oublie',
      { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': dashboard.newAddress() },
      new URLSearchParams({ email, _csrf: csrf }).toString(),
    );
    expect(answer.status).to.equal(200);
    const link = await dashboard.waitForMail(email, /http:\/\/\S+\/dashboard\/nouveau-mot-de-passe\?token=\S+/);
    expect(link.startsWith(`${dashboard.space.url}/dashboard/`)).to.equal(true);
    expect(link).to.not.include('evil.example');
  });

  it('a reset request does the same database work for a known and an unknown email, and its email leaves after the answer', async () => {
    const email = await developer();
    await outboxDrained();
    const { db } = stack();
    /** The statements of the developer space run while `work` runs (the outbox sender's aside). */
    async function statements(work: () => Promise<Answer>): Promise<{ sql: string[]; answer: Answer }> {
      const sql: string[] = [];
      const listener = (query: { sql: string }): void => {
        if (/developer_/.test(query.sql) && !/^\/\* (outbox sender|budget purge) \*\//.test(query.sql)) sql.push(query.sql);
      };
      db.on('query', listener);
      try {
        return { answer: await work(), sql };
      } finally {
        db.off('query', listener);
      }
    }
    const ask = (who: string) => async (): Promise<Answer> => {
      const address = dashboard.newAddress();
      const form = await openForm(address, '/mot-de-passe-oublie');
      return post('/mot-de-passe-oublie', form, address, { email: who });
    };
    const release = dashboard.holdMail();
    // Only so that a handler waiting for the mail server fails the test below instead of hanging it.
    const unblock = setTimeout(release, 30_000);
    let answeredWhileHeld: boolean | undefined;
    try {
      const unknown = dashboard.newEmail();
      const forUnknown = await statements(ask(unknown));
      const forKnown = await statements(ask(email));
      // The SMTP server has not accepted the email yet: the answer did not wait for it.
      answeredWhileHeld = mailsTo(email, /nouveau-mot-de-passe/) === 0;
      expect(forKnown.sql).to.deep.equal(forUnknown.sql);
      expect(forKnown.sql.some((sql) => sql.includes('developer_outbox'))).to.equal(true);
      expect(forKnown.answer.status).to.equal(200);
      const page = (answer: Answer, who: string): string => answer.text.replaceAll(who, 'EMAIL').replace(/value="[^"]+"/g, '');
      expect(page(forKnown.answer, email)).to.equal(page(forUnknown.answer, unknown));
    } finally {
      clearTimeout(unblock);
      release();
    }
    expect(answeredWhileHeld).to.equal(true);
    await dashboard.waitForMail(email, /nouveau-mot-de-passe\?token=/);
  });
});
