import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { startDashboard, PASSWORD, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';

/** `/dashboard/equipe`: members, invitations, roles and their guards (issue 25 item 9). */
describe('developer space: team members and roles', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;

  before(async () => {
    dashboard = await startDashboard();
    ({ base } = dashboard);
  });
  after(() => dashboard?.close());

  const db = () => stack().db;
  const path = (page: Page): string => new URL(page.url()).pathname;
  const auditCount = async (accountId: string, action: string): Promise<number> => {
    const [{ n }] = await db()('audit_log').where({ account_id: accountId, action }).count({ n: '*' });
    return Number(n);
  };
  const status = async (page: Page, to: string): Promise<number> => (await page.goto(`${base}${to}`))!.status();
  const menu = (page: Page): Promise<string[]> => page.$$eval('header nav a', (links) => links.map((a) => a.getAttribute('href')!));
  const roleOf = async (email: string): Promise<string | undefined> => (await db()('developer_users').where({ email }).first('role'))?.role;

  /** Posts a form of our own from the page (the sign-out form, rewritten), with the session's CSRF token unless `csrf` is given: the answer's status. */
  async function post(page: Page, to: string, fields: Record<string, string>, csrf?: string): Promise<number> {
    const token = csrf ?? (await page.$eval('header form input[name=_csrf]', (i) => (i as unknown as { value: string }).value));
    const inputs = Object.entries({ _csrf: token, ...fields })
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}" />`)
      .join('');
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.$eval(
        'header form',
        (form, action, html) => {
          const f = form as unknown as { action: string; innerHTML: string; submit(): void };
          f.action = action;
          f.innerHTML = html;
          f.submit();
        },
        `${base}${to}`,
        inputs,
      ),
    ]);
    return response!.status();
  }

  /** The owner on `page` invites `email` with `role` from the team page: the emailed link. */
  async function invite(page: Page, email: string, role: string): Promise<string> {
    await page.goto(`${base}/equipe`);
    await page.select('#invite_role', role);
    expect(await dashboard.submit(page, { email }, '#invite-form button')).to.equal(200);
    expect(await page.$eval('[role=status]', (p) => p.textContent!)).to.include(`Invitation envoyée à ${email}`);
    return dashboard.waitForMail(email, /http:\/\/\S+\/dashboard\/invitation\?token=\S+/);
  }

  /** Opens the link on `page` (signed out) and joins with the fixed address: signed in as the new member. */
  async function accept(page: Page, link: string, email: string): Promise<void> {
    await page.goto(link);
    expect(await dashboard.heading(page)).to.equal('Rejoindre un compte');
    expect(await page.$eval('#email', (i) => [(i as unknown as { value: string }).value, i.hasAttribute('readonly')])).to.deep.equal([email, true]);
    expect(await dashboard.submit(page, { password: PASSWORD }, '#join-form button')).to.equal(200);
    expect(path(page)).to.equal('/dashboard');
  }

  async function setRole(page: Page, email: string, role: string): Promise<number> {
    await page.goto(`${base}/equipe`);
    await page.select(`tr[data-email="${email}"] select`, role);
    return dashboard.submit(page, {}, `tr[data-email="${email}"] .role-form button`);
  }
  async function remove(page: Page, email: string): Promise<number> {
    await page.goto(`${base}/equipe`);
    return dashboard.submit(page, {}, `tr[data-email="${email}"] .remove-form button`);
  }

  it('invite → accept: the developer sees only their pages, cannot invite; the billing member neither keys nor webhooks; the link works once', async () => {
    await dashboard.withPage(async (owner) => {
      const { accountId } = await dashboard.signedInDeveloper(owner);
      const developer = dashboard.newEmail();
      const link = await invite(owner, developer, 'developer');
      expect(await owner.$$eval('#invitations td', (cells) => cells.map((c) => c.textContent!.trim()).slice(0, 2))).to.deep.equal([developer, 'Développeur']);
      expect(await auditCount(accountId, 'team.invited')).to.equal(1);

      await dashboard.withPage(async (member) => {
        await accept(member, link, developer);
        const user = await db()('developer_users').where({ email: developer }).first('account_id', 'role', 'email_confirmed_at');
        expect(user).to.include({ account_id: accountId, role: 'developer' });
        expect(user.email_confirmed_at).to.not.equal(null);
        expect(await auditCount(accountId, 'team.joined')).to.equal(1);
        // The menu in its task groups (Envoyer, Suivre, Intégrer, Compte), without those the role does not open.
        expect(await menu(member)).to.deep.equal(
          [
            '',
            '/envois/nouveau',
            '/envois/lots',
            '/envois',
            '/demandes',
            '/cles',
            '/webhooks',
            '/journal',
            '/parametres',
            '/identite-expediteur',
            '/confidentialite',
          ].map((p) => `/dashboard${p}`),
        );
        for (const allowed of ['/cles', '/webhooks', '/envois', '/demandes', '/journal', '/parametres'])
          expect(await status(member, allowed), allowed).to.equal(200);
        for (const refused of ['/solde', '/facturation', '/production', '/equipe', '/audit']) {
          expect(await status(member, refused), refused).to.equal(403);
          expect(await dashboard.heading(member)).to.equal('Accès refusé');
          expect(await dashboard.alert(member)).to.include('Développeur');
        }
        // A non-owner cannot invite, even with a well-formed form.
        const intruder = dashboard.newEmail();
        expect(await post(member, '/equipe/inviter', { email: intruder, role: 'owner' })).to.equal(403);
        expect(await db()('developer_invitations').where({ email: intruder }).first('id')).to.equal(undefined);
        expect(await post(member, '/solde/recharger', { amount: '50' })).to.equal(403);
      });
      // The link is used once.
      await dashboard.withPage(async (again) => {
        expect((await again.goto(link))!.status()).to.equal(400);
        expect(await dashboard.heading(again)).to.equal('Invitation invalide');
      });

      const billing = dashboard.newEmail();
      const billingLink = await invite(owner, billing, 'billing');
      await dashboard.withPage(async (member) => {
        await accept(member, billingLink, billing);
        expect(await menu(member)).to.deep.equal(
          ['', '/solde', '/facturation', '/parametres', '/identite-expediteur', '/confidentialite'].map((p) => `/dashboard${p}`),
        );
        expect(await status(member, '/solde')).to.equal(200);
        expect(await status(member, '/facturation')).to.equal(200);
        for (const refused of ['/cles', '/webhooks', '/equipe', '/journal']) expect(await status(member, refused), refused).to.equal(403);
      });
      await owner.goto(`${base}/equipe`);
      expect(await owner.$$eval('#members tbody tr', (rows) => rows.length)).to.equal(3);
      expect(await owner.$('#invitations')).to.equal(null);
    });
  });

  it('an address that is already a user elsewhere cannot join: one account per user; a member cannot be invited twice', async () => {
    await dashboard.withPage(async (other) => {
      const { email: elsewhere } = await dashboard.signedInDeveloper(other);
      await dashboard.withPage(async (owner) => {
        const { email: ownerEmail, accountId } = await dashboard.signedInDeveloper(owner);
        const link = await invite(owner, elsewhere, 'developer');
        await dashboard.withPage(async (page) => {
          await page.goto(link);
          expect(await dashboard.heading(page)).to.equal('Un compte par utilisateur');
          expect(await dashboard.alert(page)).to.include('un utilisateur n’appartient qu’à un compte');
        });
        expect(await db()('developer_users').where({ email: elsewhere }).first('account_id')).to.not.deep.equal({ account_id: accountId });
        await owner.goto(`${base}/equipe`);
        await owner.select('#invite_role', 'billing');
        expect(await dashboard.submit(owner, { email: ownerEmail }, '#invite-form button')).to.equal(409);
        expect(await dashboard.alert(owner)).to.include('déjà membre');
      });
    });
  });

  it('a role change takes effect at the member’s next page; removal closes their sessions', async () => {
    await dashboard.withPage(async (owner) => {
      const { accountId } = await dashboard.signedInDeveloper(owner);
      const email = dashboard.newEmail();
      const link = await invite(owner, email, 'developer');
      await dashboard.withPage(async (member) => {
        await accept(member, link, email);
        expect(await status(member, '/cles')).to.equal(200);
        expect(await setRole(owner, email, 'billing')).to.equal(200);
        expect(await owner.$eval(`tr[data-email="${email}"] .role`, (td) => td.textContent!.trim())).to.equal('Facturation');
        expect(await status(member, '/cles')).to.equal(403);
        expect(await status(member, '/solde')).to.equal(200);
        const [entry] = await db()('audit_log').where({ account_id: accountId, action: 'team.role_changed' }).select('details');
        expect(entry.details).to.include({ email, from: 'developer', to: 'billing' });

        await dashboard.withPage(async (second) => {
          expect(await dashboard.signInAs(second, email)).to.equal(200);
          expect(await remove(owner, email)).to.equal(200);
          expect(await dashboard.alert(owner).catch(() => '')).to.equal('');
          for (const page of [member, second]) {
            await page.goto(`${base}/solde`);
            expect(path(page)).to.equal('/dashboard/connexion');
          }
          expect(await dashboard.signInAs(second, email)).to.equal(401);
        });
        expect(await roleOf(email)).to.equal(undefined);
        expect(await auditCount(accountId, 'team.removed')).to.equal(1);
      });
    });
  });

  it('the last owner can be neither demoted nor removed (409); forms without the session’s CSRF token are refused', async () => {
    await dashboard.withPage(async (owner) => {
      const { email, accountId } = await dashboard.signedInDeveloper(owner);
      expect(await setRole(owner, email, 'developer')).to.equal(409);
      expect(await dashboard.alert(owner)).to.include('au moins un propriétaire');
      expect(await remove(owner, email)).to.equal(409);
      expect(await dashboard.alert(owner)).to.include('au moins un propriétaire');
      expect(await roleOf(email)).to.equal('owner');
      expect(await auditCount(accountId, 'team.role_changed')).to.equal(0);

      await owner.goto(`${base}/equipe`);
      const intruder = dashboard.newEmail();
      expect(await post(owner, '/equipe/inviter', { email: intruder, role: 'owner' }, 'not-the-token')).to.equal(403);
      expect(await dashboard.heading(owner)).to.equal('Formulaire expiré');
      expect(await db()('developer_invitations').where({ email: intruder }).first('id')).to.equal(undefined);
      await owner.goto(`${base}/equipe`);
      const userId = (await db()('developer_users').where({ email }).first('id')).id as string;
      expect(await post(owner, `/equipe/${userId}/role`, { role: 'billing' }, 'not-the-token')).to.equal(403);
      expect(await roleOf(email)).to.equal('owner');
    });
  });

  it('two owners demoting each other at the same moment leave one owner', async () => {
    await dashboard.withPage(async (first) => {
      const { email: firstEmail, accountId } = await dashboard.signedInDeveloper(first);
      const secondEmail = dashboard.newEmail();
      const link = await invite(first, secondEmail, 'owner');
      await dashboard.withPage(async (second) => {
        await accept(second, link, secondEmail);
        await first.goto(`${base}/equipe`);
        await second.goto(`${base}/equipe`);
        await first.select(`tr[data-email="${secondEmail}"] select`, 'developer');
        await second.select(`tr[data-email="${firstEmail}"] select`, 'developer');
        const statuses = await Promise.all([
          dashboard.submit(first, {}, `tr[data-email="${secondEmail}"] .role-form button`),
          dashboard.submit(second, {}, `tr[data-email="${firstEmail}"] .role-form button`),
        ]);
        expect(statuses.filter((s) => s === 200)).to.have.length(1);
        expect(statuses.filter((s) => s === 403 || s === 409)).to.have.length(1);
        const [{ n }] = await db()('developer_users').where({ account_id: accountId, role: 'owner' }).count({ n: '*' });
        expect(Number(n)).to.equal(1);
        expect(await auditCount(accountId, 'team.role_changed')).to.equal(1);
      });
    });
  });
});
