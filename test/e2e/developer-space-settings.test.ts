import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'puppeteer-core';
import { CODE_FAILURES_PER_USER } from '../../domain/developers/throttle.js';
import { startDashboard, PASSWORD, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';

/** `/dashboard/parametres`: password change, email change, two-factor sign-in (issue 25 item 9). */
describe('developer space: account settings (password, email, two-factor sign-in)', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;

  before(async () => {
    dashboard = await startDashboard();
    ({ base } = dashboard);
  });
  after(() => dashboard?.close());

  const db = () => stack().db;
  const NEW_PASSWORD = 'une toute nouvelle phrase secrète';
  const notice = (page: Page): Promise<string> => page.$eval('[role=status]', (p) => p.textContent!.trim());
  const path = (page: Page): string => new URL(page.url()).pathname;
  const auditCount = async (accountId: string, action: string): Promise<number> => {
    const [{ n }] = await db()('audit_log').where({ account_id: accountId, action }).count({ n: '*' });
    return Number(n);
  };
  /** The code an authenticator app shows for `secret`, `offset` steps of 30 s from now. */
  const code = (secret: string, offset = 0): string =>
    new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

  async function settings(page: Page): Promise<void> {
    await page.goto(`${base}/parametres`);
    expect(await dashboard.heading(page)).to.equal('Paramètres du compte');
  }

  /** Turns two-factor sign-in on from the settings page: the secret shown and the recovery codes. */
  async function enableTwoFactor(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
    await settings(page);
    expect(await dashboard.submit(page, {}, '#two-factor-start-form button')).to.equal(200);
    const secret = await page.$eval('#totp-secret', (e) => e.textContent!.trim());
    expect(await dashboard.submit(page, { confirm_code: code(secret) }, '#two-factor-confirm-form button')).to.equal(200);
    const recoveryCodes = await page.$$eval('#recovery-codes li', (items) => items.map((li) => li.textContent!.trim()));
    return { secret, recoveryCodes };
  }

  it('password change: the current password is checked, the new one follows the sign-up rules, other sessions close, reset links are void', async () => {
    await dashboard.withPage(async (page) => {
      const { email, accountId } = await dashboard.signedInDeveloper(page);
      await dashboard.withPage(async (other) => {
        expect(await dashboard.signInAs(other, email)).to.equal(200);
        expect(path(other)).to.equal('/dashboard');
        // A reset link asked before the change.
        await other.goto(`${base}/mot-de-passe-oublie`);
        await dashboard.submit(other, { email });
        const resetLink = await dashboard.waitForMail(email, /http:\/\/\S+\/dashboard\/nouveau-mot-de-passe\?token=\S+/);

        await settings(page);
        const form = '#password-form button';
        expect(
          await dashboard.submit(page, { current_password: 'pas le bon mot de passe', new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD }, form),
        ).to.equal(401);
        expect(await dashboard.alert(page)).to.equal('Mot de passe actuel incorrect.');
        expect(await dashboard.submit(page, { current_password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: `${NEW_PASSWORD}!` }, form)).to.equal(
          400,
        );
        expect(await dashboard.alert(page)).to.include('différentes');
        expect(await dashboard.submit(page, { current_password: PASSWORD, new_password: 'azertyuiop', new_password_again: 'azertyuiop' }, form)).to.equal(400);
        expect(await dashboard.alert(page)).to.include('mots de passe courants');
        expect(await dashboard.submit(page, { current_password: PASSWORD, new_password: 'court', new_password_again: 'court' }, form)).to.equal(400);
        expect(await auditCount(accountId, 'password.changed')).to.equal(0);

        expect(await dashboard.submit(page, { current_password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD }, form)).to.equal(200);
        expect(await notice(page)).to.include('Mot de passe changé');
        expect(await auditCount(accountId, 'password.changed')).to.equal(1);
        // This session stays; the other one is closed.
        await settings(page);
        await other.goto(`${base}/parametres`);
        expect(path(other)).to.equal('/dashboard/connexion');
        await other.goto(resetLink);
        expect(await dashboard.heading(other)).to.equal('Lien invalide');
        expect(await dashboard.signInAs(other, email)).to.equal(401);
        expect(await dashboard.signInAs(other, email, NEW_PASSWORD)).to.equal(200);
        expect(path(other)).to.equal('/dashboard');
      });
    });
  });

  it('email change: confirmed only by the link sent to the new address (once), the old address is told; a taken address gets the same answer', async () => {
    await dashboard.withPage(async (page) => {
      const { email, accountId } = await dashboard.signedInDeveloper(page);
      const newEmail = dashboard.newEmail();
      await settings(page);
      expect(await dashboard.submit(page, { new_email: newEmail, email_password: 'pas le bon mot de passe' }, '#email-form button')).to.equal(401);
      expect(await dashboard.alert(page)).to.equal('Mot de passe actuel incorrect.');
      expect(await dashboard.submit(page, { new_email: newEmail, email_password: PASSWORD }, '#email-form button')).to.equal(200);
      const answer = (await notice(page)).replace(newEmail, 'ADDRESS');
      expect(await auditCount(accountId, 'email.change_requested')).to.equal(1);
      await dashboard.waitForMail(email, new RegExp(`vers ${newEmail.replace(/\./g, '\\.')}`));
      const link = await dashboard.waitForMail(newEmail, /http:\/\/\S+\/dashboard\/confirmation-email\?token=\S+/);
      // Nothing changes until the link is opened.
      expect((await db()('developer_users').where({ account_id: accountId }).first('email')).email).to.equal(email);

      await dashboard.withPage(async (other) => {
        await other.goto(link);
        expect(await dashboard.heading(other)).to.equal('Adresse changée');
        await other.goto(link);
        expect(await dashboard.heading(other)).to.equal('Lien invalide');
      });
      expect((await db()('developer_users').where({ account_id: accountId }).first('email')).email).to.equal(newEmail);
      expect(await auditCount(accountId, 'email.changed')).to.equal(1);
      await settings(page);
      expect(await page.$eval('#current-email', (e) => e.textContent)).to.equal(newEmail);

      // Another developer's address: the same page, no link; its owner is told someone tried.
      const taken = await dashboard.withPage(async (other) => (await dashboard.signedInDeveloper(other)).email);
      expect(await dashboard.submit(page, { new_email: taken, email_password: PASSWORD }, '#email-form button')).to.equal(200);
      expect((await notice(page)).replace(taken, 'ADDRESS')).to.equal(answer);
      await dashboard.waitForMail(taken, /Quelqu’un a voulu donner cette adresse/);
      expect(dashboard.inbox.some((m) => m.to === taken && /confirmation-email/.test(m.text))).to.equal(false);
      expect((await db()('developer_users').where({ account_id: accountId }).first('email')).email).to.equal(newEmail);
    });
  });

  it('two-factor sign-in: enabled with a code, then the password alone does not sign in; wrong and replayed codes are refused, recovery codes work once', async () => {
    await dashboard.withPage(async (page) => {
      const { email, accountId } = await dashboard.signedInDeveloper(page);
      await settings(page);
      expect(await dashboard.submit(page, {}, '#two-factor-start-form button')).to.equal(200);
      const secret = await page.$eval('#totp-secret', (e) => e.textContent!.trim());
      expect(secret).to.match(/^[A-Z2-7]{32}$/);
      const uri = new URL(await page.$eval('#totp-uri', (e) => e.textContent!.trim()));
      expect(uri.protocol).to.equal('otpauth:');
      expect(uri.searchParams.get('secret')).to.equal(secret);
      expect([uri.searchParams.get('algorithm'), uri.searchParams.get('digits'), uri.searchParams.get('period')]).to.deep.equal(['SHA1', '6', '30']);
      // Stored sealed, not as shown.
      const { id: userId } = await db()('developer_users').where({ email }).first('id');
      const stored = await db()('developer_second_factors').where({ user_id: userId }).first('secret_sealed');
      expect(stored.secret_sealed).to.not.include(secret);

      const wrong = code(secret, 10);
      expect(await dashboard.submit(page, { confirm_code: wrong }, '#two-factor-confirm-form button')).to.equal(400);
      expect(await dashboard.alert(page)).to.include('Code incorrect');
      expect(await auditCount(accountId, '2fa.enabled')).to.equal(0);
      const enabling = code(secret);
      expect(await dashboard.submit(page, { confirm_code: enabling }, '#two-factor-confirm-form button')).to.equal(200);
      const recoveryCodes = await page.$$eval('#recovery-codes li', (items) => items.map((li) => li.textContent!.trim()));
      expect(recoveryCodes).to.have.length(10);
      expect(new Set(recoveryCodes).size).to.equal(10);
      expect(await auditCount(accountId, '2fa.enabled')).to.equal(1);

      // The code that enabled it cannot sign in (its step is spent); the next step's code can.
      const next = code(secret, 1);
      await dashboard.withPage(async (other) => {
        expect(await dashboard.signInAs(other, email)).to.equal(200);
        expect(path(other)).to.equal('/dashboard/connexion/code');
        await other.goto(`${base}/cles`);
        expect(path(other)).to.equal('/dashboard/connexion');
        await other.goto(`${base}/connexion/code`);
        expect(await dashboard.submit(other, { code: code(secret, 10) })).to.equal(401);
        expect(await dashboard.alert(other)).to.equal('Code incorrect.');
        expect(await dashboard.submit(other, { code: enabling })).to.equal(401);
        expect(await dashboard.alert(other)).to.include('déjà servi');
        expect(await dashboard.submit(other, { code: next })).to.equal(200);
        expect(path(other)).to.equal('/dashboard');
      });
      // The same code again, in another sign-in: refused (no replay).
      await dashboard.withPage(async (other) => {
        await dashboard.signInAs(other, email);
        expect(await dashboard.submit(other, { code: next })).to.equal(401);
        expect(await dashboard.alert(other)).to.include('déjà servi');
        // A recovery code signs in, once.
        expect(await dashboard.submit(other, { code: recoveryCodes[0]!.toLowerCase() })).to.equal(200);
        expect(path(other)).to.equal('/dashboard');
      });
      expect(await auditCount(accountId, '2fa.recovery_code_used')).to.equal(1);
      await dashboard.withPage(async (other) => {
        await dashboard.signInAs(other, email);
        expect(await dashboard.submit(other, { code: recoveryCodes[0]! })).to.equal(401);
        expect(path(other)).to.equal('/dashboard/connexion/code');
      });

      // Five wrong codes so far: the user's code budget is spent (next test); a new window for the rest.
      await db()('developer_throttle')
        .where({ subject: `code:user:${userId}` })
        .delete();
      // Disabling asks the password and a code.
      await settings(page);
      const disable = '#two-factor-disable-form button';
      expect(await dashboard.submit(page, { disable_password: 'pas le bon mot de passe', disable_code: recoveryCodes[1]! }, disable)).to.equal(401);
      expect(await dashboard.alert(page)).to.equal('Mot de passe actuel incorrect.');
      expect(await dashboard.submit(page, { disable_password: PASSWORD, disable_code: code(secret, 10) }, disable)).to.equal(401);
      expect(await dashboard.alert(page)).to.equal('Code incorrect.');
      expect(await dashboard.submit(page, { disable_password: PASSWORD, disable_code: recoveryCodes[0]! }, disable)).to.equal(401);
      expect(await auditCount(accountId, '2fa.disabled')).to.equal(0);
      expect(await dashboard.submit(page, { disable_password: PASSWORD, disable_code: recoveryCodes[1]! }, disable)).to.equal(200);
      expect(await notice(page)).to.include('désactivée');
      expect(await auditCount(accountId, '2fa.disabled')).to.equal(1);
      expect(await auditCount(accountId, '2fa.recovery_code_used')).to.equal(2);
      await dashboard.withPage(async (other) => {
        expect(await dashboard.signInAs(other, email)).to.equal(200);
        expect(path(other)).to.equal('/dashboard');
      });
    });
  });

  it('the second step has its own attempt budget and expires after 5 minutes; disabling with a TOTP code works', async () => {
    await dashboard.withPage(async (page) => {
      const { email } = await dashboard.signedInDeveloper(page);
      const { secret } = await enableTwoFactor(page);
      await dashboard.withPage(async (other) => {
        await dashboard.signInAs(other, email);
        for (let i = 0; i < CODE_FAILURES_PER_USER; i++) expect(await dashboard.submit(other, { code: '12345a' })).to.equal(401);
        // Over the user's budget, even the right code is refused.
        expect(await dashboard.submit(other, { code: code(secret, 1) })).to.equal(429);
        expect(await dashboard.alert(other)).to.include('Trop de codes');
      });
      await db()('developer_throttle').where('subject', 'like', 'code:user:%').delete();
      await dashboard.withPage(async (other) => {
        await dashboard.signInAs(other, email);
        await db()('developer_sessions')
          .whereNotNull('pending_user_id')
          .update({ pending_until: new Date(Date.now() - 1000) });
        expect(await dashboard.submit(other, { code: code(secret, 1) })).to.equal(401);
        expect(await dashboard.heading(other)).to.equal('Connexion expirée');
      });
      await settings(page);
      expect(await dashboard.submit(page, { disable_password: PASSWORD, disable_code: code(secret, 1) }, '#two-factor-disable-form button')).to.equal(200);
      expect(await notice(page)).to.include('désactivée');
    });
  });

  it('a settings form without the session’s CSRF token is refused (403) and changes nothing', async () => {
    await dashboard.withPage(async (page, _context, address) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const cookie = (await page.cookies()).find((c) => c.name === 'svc_dashboard')!;
      const post = (path: string, fields: Record<string, string>) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `svc_dashboard=${cookie.value}`, 'X-Forwarded-For': address },
          body: new URLSearchParams(fields).toString(),
        });
      const forged = { _csrf: 'pas-le-bon-jeton' };
      expect(
        (await post('/parametres/mot-de-passe', { ...forged, current_password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD }))
          .status,
      ).to.equal(403);
      expect((await post('/parametres/email', { ...forged, email_password: PASSWORD, new_email: dashboard.newEmail() })).status).to.equal(403);
      expect((await post('/parametres/2fa/activer', forged)).status).to.equal(403);
      expect(await auditCount(accountId, 'password.changed')).to.equal(0);
      expect(await auditCount(accountId, 'email.change_requested')).to.equal(0);
      // The session's token works.
      const csrf = await page.$eval('[name=_csrf]', (e) => (e as unknown as { value: string }).value);
      expect(
        (await post('/parametres/mot-de-passe', { _csrf: csrf, current_password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD }))
          .status,
      ).to.equal(302);
      expect(await auditCount(accountId, 'password.changed')).to.equal(1);
    });
  });
});
