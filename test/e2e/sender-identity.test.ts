import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDashboard, PASSWORD, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';
import { AR24_PRIVATE_KEY, AR24_TOKEN, Ar24StandIn } from '../support/ar24-server.js';
import { createWorker, type RunnableWorker } from '../../worker/worker.js';
import type { Config } from '../../lib/config.js';
import { domainDeps } from '../../temporal/domain-deps.js';
import { saveBillingProfile, type BillingProfileFields } from '../../domain/billing/profiles.js';
import { acceptInvitation, inviteMember } from '../../domain/developers/team.js';
import {
  assertSenderVerified,
  eraseSenderContacts,
  exportSenderIdentities,
  requestSenderIdentity,
  senderIdentityOf,
} from '../../domain/developers/sender-identity.js';
import type { Role } from '../../domain/developers/roles.js';
import { DomainError } from '../../domain/errors.js';

/** A company's profile: SIREN 552 100 554, a valid SIRET. */
const PROFILE: BillingProfileFields = {
  legalName: 'Gestion Martin SARL',
  addressLine1: '12 rue de la Paix',
  addressLine2: null,
  postalCode: '75002',
  city: 'Paris',
  country: 'FR',
  siret: '55210055400013',
  vatNumber: null,
  email: 'compta@martin.example',
};
const PERSON = { sender_first_name: 'Claire', sender_last_name: 'Martin' };
const FORM_BUTTON = '#sender-identity-form button[type=submit]';

/** The simulator's step (OPERATOR_STEP_DELAY) for this file: long enough to see `requested` on the page first. */
// Long enough that the request, its page and the 422 read after it all fit before it, on a loaded CI machine too.
const SIMULATOR_STEP_MS = 12_000;

/** A worker on its own task queue with its own provider; the dashboard given the same settings runs its short workflows there. */
async function ownWorker(configure: (config: Config) => Config): Promise<{ worker: RunnableWorker; done: Promise<void> }> {
  const { config, workerDb, local } = stack();
  const worker = await createWorker({ config: configure(config), db: workerDb, address: local.temporalAddress });
  return { worker, done: worker.run() };
}

describe('developer space: the sender identity of electronic registered letters (issue 54)', function () {
  this.timeout(180_000);
  const ar24 = new Ar24StandIn();
  const simulatorSettings = (c: Config): Config => ({ ...c, taskQueue: 'sender-identity-simulator', operatorStepDelayMs: SIMULATOR_STEP_MS });
  const ar24Settings = (c: Config): Config => ({
    ...c,
    taskQueue: 'sender-identity-ar24',
    lreProvider: { kind: 'ar24', ar24: { apiUrl: ar24.apiUrl, token: AR24_TOKEN, privateKey: AR24_PRIVATE_KEY, timeoutMs: 5_000 } },
  });
  const workers: { worker: RunnableWorker; done: Promise<void> }[] = [];
  let sim: Dashboard;
  let withAr24: Dashboard;

  before(async () => {
    await ar24.start();
    workers.push(await ownWorker(simulatorSettings), await ownWorker(ar24Settings));
    sim = await startDashboard(simulatorSettings);
    withAr24 = await startDashboard(ar24Settings);
  });
  after(async () => {
    await sim?.close();
    await withAr24?.close();
    for (const { worker, done } of workers) {
      worker.shutdown();
      await done.catch(() => undefined);
    }
    await ar24.stop();
  });

  const db = () => stack().db;
  const deps = (configure: (c: Config) => Config) => domainDeps(db(), configure(stack().config), stack().temporal.client);
  const state = (page: Page): Promise<string> => page.$eval('#sender-state', (p) => p.getAttribute('data-identity')!);
  const audits = (accountId: string): Promise<number> =>
    db()('audit_log')
      .where({ account_id: accountId, action: 'sender_identity.requested' })
      .count<{ count: string }[]>('* as count')
      .then(([r]) => Number(r!.count));
  const row = (accountId: string, provider: string) => db()('lre_senders').where({ account_id: accountId, provider }).first();
  const ar24Calls = (route: string): number => ar24.calls.filter((call) => call.route === route && call.answer === 'ok').length;
  const ar24UsersOf = (email: string) => [...ar24.users.values()].filter((user) => user.email === email);

  /** Whether the promise is refused with `code`. */
  async function refusedWith(promise: Promise<unknown>, code: string): Promise<DomainError> {
    try {
      await promise;
    } catch (error) {
      expect(error).to.be.instanceOf(DomainError);
      expect((error as DomainError).code).to.equal(code);
      return error as DomainError;
    }
    throw new Error(`not refused with ${code}`);
  }

  /** A member with `role` of the owner's account, signed in on `page`. */
  async function member(dash: Dashboard, page: Page, owner: { userId: string; email: string; accountId: string }, role: Role): Promise<string> {
    const email = dash.newEmail();
    const invited = await inviteMember(db(), { kind: 'developer', userId: owner.userId, email: owner.email }, { accountId: owner.accountId, email, role });
    if (invited.kind !== 'invited') throw new Error(invited.kind);
    const joined = await acceptInvitation(db(), { token: invited.token, password: PASSWORD, address: dash.newAddress() });
    expect(joined.kind).to.equal('joined');
    expect(await dash.signInAs(page, email)).to.equal(200);
    return email;
  }

  /** A new owner signed in on `page`, with their user id. */
  async function owner(dash: Dashboard, page: Page): Promise<{ userId: string; email: string; accountId: string }> {
    const { email, accountId } = await dash.signedInDeveloper(page);
    const user = await db()('developer_users').where({ email }).first('id');
    return { userId: user.id as string, email, accountId };
  }

  /** Posts the request form as a page would, with the session's CSRF token, whatever the page shows. */
  async function postRequest(page: Page, base: string): Promise<number> {
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.$eval(
        'header form',
        (form, action, fields) => {
          const f = form as unknown as { action: string; innerHTML: string; submit(): void };
          const token = (f as unknown as { querySelector(s: string): { value: string } }).querySelector('input[name=_csrf]').value;
          f.action = action;
          f.innerHTML = Object.entries({ _csrf: token, ...fields })
            .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}" />`)
            .join('');
          f.submit();
        },
        `${base}/identite-expediteur`,
        PERSON,
      ),
    ]);
    return response!.status();
  }

  it('simulator: refused without a billing profile, then without its SIRET; requested, then verified one step later; the 422 until then', async () => {
    await sim.withPage(async (page) => {
      const { accountId } = await owner(sim, page);
      const simDeps = deps(simulatorSettings);
      await refusedWith(assertSenderVerified(simDeps, accountId), 'sender_identity_unverified');

      await page.goto(`${sim.base}/parametres`);
      await Promise.all([page.waitForNavigation(), page.click('#sender-identity-link')]);
      expect(await sim.heading(page)).to.equal('Identité d’expéditeur');
      expect(await state(page)).to.equal('unverified');
      const why = await page.$eval('#sender-why', (p) => p.textContent!);
      expect(why).to.include('L100').and.include('R53-1').and.include('eIDAS');
      expect(await page.$eval('#sender-provider', (p) => p.textContent!)).to.include('simulé');
      expect(await page.$eval('#sender-company', (p) => p.textContent!)).to.include('Aucun profil de facturation');

      expect(await sim.submit(page, PERSON, FORM_BUTTON)).to.equal(422);
      expect(await sim.alert(page)).to.include('profil de facturation');
      await saveBillingProfile(db(), accountId, { ...PROFILE, siret: null });
      await page.goto(`${sim.base}/identite-expediteur`);
      expect(await page.$eval('#sender-company', (p) => p.textContent!)).to.include('manquant');
      expect(await sim.submit(page, PERSON, FORM_BUTTON)).to.equal(422);
      expect(await sim.alert(page)).to.include('SIRET');
      // The names typed are kept for the next try.
      expect(await page.$eval('#sender_first_name', (i) => (i as unknown as { value: string }).value)).to.equal('Claire');
      expect(await row(accountId, 'simulator')).to.equal(undefined);
      expect(await audits(accountId)).to.equal(0);

      await saveBillingProfile(db(), accountId, PROFILE);
      await page.goto(`${sim.base}/identite-expediteur`);
      expect(await sim.submit(page, PERSON, FORM_BUTTON)).to.equal(200);
      expect(await page.$eval('[role=status]', (p) => p.textContent!)).to.include('Vérification demandée');
      expect(await state(page)).to.equal('requested');
      expect(await page.$eval('#sender-next', (p) => p.textContent!)).to.include('OPERATOR_STEP_DELAY');
      expect(await page.$('#sender-identity-form')).to.equal(null);
      const requested = await row(accountId, 'simulator');
      expect(requested).to.include({ identity: 'requested', first_name: 'Claire', last_name: 'Martin' });
      expect(requested.requested_at).to.be.instanceOf(Date);
      expect(await db()('lre_simulator_senders').where({ account_id: accountId }).first())
        .to.have.property('identity_requested_at')
        .that.is.instanceOf(Date);
      expect(await audits(accountId)).to.equal(1);
      const entry = await db()('audit_log').where({ account_id: accountId, action: 'sender_identity.requested' }).first();
      expect(entry.details).to.include({ provider: 'simulator', legalName: PROFILE.legalName, siret: PROFILE.siret });
      const refused = await refusedWith(assertSenderVerified(simDeps, accountId), 'sender_identity_unverified');
      expect(refused.details).to.deep.equal({ identity: 'requested' });

      // The simulator verifies one OPERATOR_STEP_DELAY after the request, read when the page opens.
      await sleep(SIMULATOR_STEP_MS + 200);
      await page.goto(`${sim.base}/identite-expediteur`);
      expect(await state(page)).to.equal('verified');
      expect(await page.$eval('#sender-state', (p) => p.textContent!)).to.include('vérifiée');
      const verified = await row(accountId, 'simulator');
      expect(verified.identity).to.equal('verified');
      expect(verified.verified_at.getTime()).to.be.at.least(requested.requested_at.getTime());
      await assertSenderVerified(simDeps, accountId);
      // Asked again: nothing more at the provider, nothing more in the audit log.
      expect(await postRequest(page, sim.base)).to.equal(200);
      expect(await page.$eval('[role=status]', (p) => p.textContent!)).to.include('déjà demandée');
      expect(await audits(accountId)).to.equal(1);
      // Another provider knows nothing of this verification.
      expect((await senderIdentityOf(deps(ar24Settings), accountId)).identity).to.equal('unverified');

      // The account's export carries it; its closing erases the person, the state stays.
      const exported = await exportSenderIdentities(db(), accountId);
      expect(exported.map((e) => [e.provider, e.identity, e.person?.lastName])).to.deep.equal([['simulator', 'verified', 'Martin']]);
      expect(await eraseSenderContacts(db(), accountId)).to.equal(1);
      expect(await row(accountId, 'simulator')).to.include({ identity: 'verified', first_name: '', last_name: '', email: 'erased@erased.invalid' });
    });
  });

  it('a developer or billing member reads the page without the form, and is refused (403) when posting anyway', async () => {
    await sim.withPage(async (ownerPage) => {
      const boss = await owner(sim, ownerPage);
      await saveBillingProfile(db(), boss.accountId, PROFILE);
      for (const role of ['developer', 'billing'] as const)
        await sim.withPage(async (page) => {
          await member(sim, page, boss, role);
          const menu = await page.$$eval('header nav a', (links) => links.map((a) => a.getAttribute('href')));
          expect(menu, role).to.include('/dashboard/identite-expediteur');
          await page.goto(`${sim.base}/identite-expediteur`);
          expect(await state(page)).to.equal('unverified');
          expect(await page.$('#sender-identity-form'), role).to.equal(null);
          expect(await page.$eval('#sender-owner-only', (p) => p.textContent!)).to.include('propriétaire');
          expect(await postRequest(page, sim.base), role).to.equal(403);
          expect(await sim.alert(page)).to.include('Seul un propriétaire');
        });
      expect(await row(boss.accountId, 'simulator')).to.equal(undefined);
      expect(await audits(boss.accountId)).to.equal(0);
    });
  });

  it('AR24: the sender user created with the company, the identity asked once (through a maintenance answer); requested until AR24 says verified', async () => {
    await withAr24.withPage(async (page) => {
      const { accountId, email } = await owner(withAr24, page);
      await saveBillingProfile(db(), accountId, PROFILE);
      await page.goto(`${withAr24.base}/identite-expediteur`);
      expect(await page.$eval('#sender-provider', (p) => p.textContent!)).to.include('AR24');
      expect(await state(page)).to.equal('unverified');
      const before = ar24Calls('POST /api/user/identity');
      ar24.maintenanceNext = 1;
      expect(await withAr24.submit(page, PERSON, FORM_BUTTON)).to.equal(200);
      expect(await state(page)).to.equal('requested');
      const next = await page.$eval('#sender-next', (p) => p.textContent!.replace(/\s+/g, ' '));
      expect(next).to.include('clé à usage unique (OTP)').and.include('site d’AR24').and.include(email).and.include('Claire Martin');

      const [user, ...others] = ar24UsersOf(email);
      expect(others).to.have.length(0);
      expect(user!.identity).to.equal('requested');
      expect(user!.fields).to.include({
        email,
        firstname: 'Claire',
        lastname: 'Martin',
        statut: 'professionnel',
        company: PROFILE.legalName,
        company_siret: PROFILE.siret,
        address1: PROFILE.addressLine1,
        zipcode: PROFILE.postalCode,
        city: PROFILE.city,
        country: 'FR',
      });
      expect(ar24Calls('POST /api/user/identity') - before).to.equal(1);
      expect(ar24.calls.some((call) => call.answer === 'maintenance')).to.equal(true);
      const requested = await row(accountId, 'ar24');
      expect(requested).to.include({ identity: 'requested', provider_user_id: String(user!.id), email });

      // Opened again: AR24 read again, still not verified (the key is in the post).
      const reads = ar24.calls.filter((call) => call.route === 'GET /api/user/').length;
      await page.goto(`${withAr24.base}/identite-expediteur`);
      expect(await state(page)).to.equal('requested');
      expect(ar24.calls.filter((call) => call.route === 'GET /api/user/').length).to.be.greaterThan(reads);
      expect((await row(accountId, 'ar24')).checked_at.getTime()).to.be.greaterThan(requested.checked_at.getTime());
      await refusedWith(assertSenderVerified(deps(ar24Settings), accountId), 'sender_identity_unverified');

      // The sender typed the key at AR24.
      ar24.verifyIdentity(email);
      await page.goto(`${withAr24.base}/identite-expediteur`);
      expect(await state(page)).to.equal('verified');
      expect((await row(accountId, 'ar24')).verified_at).to.be.instanceOf(Date);
      await assertSenderVerified(deps(ar24Settings), accountId);
      expect(ar24Calls('POST /api/user/identity') - before).to.equal(1);
      expect(ar24UsersOf(email)).to.have.length(1);
    });
  });

  it('AR24: two owners clicking at once, and four requests at once: one sender user and one request at AR24, one audit entry', async () => {
    await withAr24.withPage(async (first) => {
      const boss = await owner(withAr24, first);
      await saveBillingProfile(db(), boss.accountId, PROFILE);
      await withAr24.withPage(async (second) => {
        await member(withAr24, second, boss, 'owner');
        for (const page of [first, second]) {
          await page.goto(`${withAr24.base}/identite-expediteur`);
          for (const [name, value] of Object.entries(PERSON))
            await page.$eval(`[name=${name}]`, (i, v) => ((i as unknown as { value: string }).value = v), value);
        }
        const before = ar24Calls('POST /api/user/identity');
        const clicked = await Promise.all(
          [first, second].map(async (page) => {
            const [response] = await Promise.all([page.waitForNavigation(), page.click(FORM_BUTTON)]);
            return [response!.status(), await page.$eval('[role=status]', (p) => p.textContent!)] as const;
          }),
        );
        expect(clicked.map(([status]) => status)).to.deep.equal([200, 200]);
        expect(clicked.map(([, text]) => (text.includes('déjà') ? 'already' : 'requested')).sort()).to.deep.equal(['already', 'requested']);
        expect(ar24Calls('POST /api/user/identity') - before).to.equal(1);
        expect(await audits(boss.accountId)).to.equal(1);
        const sender = await row(boss.accountId, 'ar24');
        // The sender user is the one who won the lock's: one user at AR24, with that email.
        expect([boss.email, await second.$eval('header .user', (s) => s.textContent!)]).to.include(sender.email);
        expect(ar24UsersOf(sender.email)).to.have.length(1);
      });
    });

    // The domain alone, four calls at once for another account.
    await withAr24.withPage(async (page) => {
      const boss = await owner(withAr24, page);
      await saveBillingProfile(db(), boss.accountId, PROFILE);
      const before = ar24Calls('POST /api/user/identity');
      const users = ar24Calls('POST /api/user/');
      const actor = { kind: 'developer' as const, userId: boss.userId, email: boss.email };
      const outcomes = await Promise.all(
        [1, 2, 3, 4].map(() => requestSenderIdentity(deps(ar24Settings), boss.accountId, actor, { firstName: 'Claire', lastName: 'Martin' })),
      );
      expect(outcomes.map((o) => o.outcome).sort()).to.deep.equal(['already', 'already', 'already', 'requested']);
      expect(ar24Calls('POST /api/user/identity') - before).to.equal(1);
      expect(ar24Calls('POST /api/user/') - users).to.equal(1);
      expect(await audits(boss.accountId)).to.equal(1);
    });
  });
});
