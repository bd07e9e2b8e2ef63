import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { call, createKey } from '../support/api.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { MAILING_RETENTION_DEFAULT_DAYS } from '../../domain/privacy/retention.js';
import { count } from '../../web/pages/format.js';

/**
 * The developer space's part of issue 53: the account's retention period (Paramètres, owners only)
 * and the erasure of a final mailing from the mailings page (owners only).
 */
describe('developer space: retention period and erasure of a mailing', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;

  before(async () => {
    dashboard = await startDashboard();
    ({ base } = dashboard);
  });
  after(() => dashboard?.close());

  const db = () => stack().db;
  const text = (page: Page, selector: string): Promise<string> => page.$eval(selector, (e) => e.textContent!.replace(/\s+/g, ' ').trim());
  const audit = (accountId: string, action: string) => db()('audit_log').where({ account_id: accountId, action });
  /** Makes the signed-in member a developer of their account (the role is read at each request). */
  const makeDeveloper = (email: string) => db()('developer_users').where({ email }).update({ role: 'developer' });
  /** Posts a form the page does not offer, with the page's CSRF token, as a hand-made request would: the status of the answer. */
  async function forgedPost(page: Page, action: string, fields: Record<string, string>): Promise<number> {
    const script = `(() => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = ${JSON.stringify(action)};
      const fields = { ...${JSON.stringify(fields)}, _csrf: document.querySelector('input[name=_csrf]').value };
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement('input');
        input.name = name;
        input.value = value;
        form.appendChild(input);
      }
      document.body.appendChild(form);
      form.submit();
    })()`;
    const [response] = await Promise.all([page.waitForNavigation(), page.evaluate(script)]);
    return response!.status();
  }

  it('an owner sets the retention period within its bounds (audit-logged); a developer sees it and cannot change it', async () => {
    await dashboard.withPage(async (page) => {
      const { email, accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/parametres`);
      expect(await text(page, '#retention-days')).to.include(`${count(MAILING_RETENTION_DEFAULT_DAYS).replace(/\s/g, ' ')} jours`); // « 1 827 », read with its spaces as plain ones
      // The browser would not send it (min, max): as a hand-made request would.
      expect(await forgedPost(page, '/dashboard/parametres/conservation', { retention_days: '29' })).to.equal(400);
      expect(await dashboard.alert(page)).to.include('de 30 à 3\u202f653');
      expect(await dashboard.submit(page, { retention_days: '90' }, '#retention-form button')).to.equal(200);
      expect(await page.$eval('[role=status]', (p) => p.textContent!)).to.include('Durée de conservation des envois enregistrée');
      expect(await text(page, '#retention-days')).to.include('90 jours');
      expect((await db()('accounts').where({ id: accountId }).first('retention_days')).retention_days).to.equal(90);
      const entries = await audit(accountId, 'account.retention_changed');
      expect(entries.map((e) => e.details)).to.deep.equal([{ from: MAILING_RETENTION_DEFAULT_DAYS, to: 90 }]);
      expect(entries[0].actor_label).to.equal(email);

      await makeDeveloper(email);
      await page.goto(`${base}/parametres`);
      expect(await page.$('#retention-form')).to.equal(null);
      expect(await text(page, 'main')).to.include('Seul un propriétaire du compte peut changer cette durée');
      expect(await forgedPost(page, `/dashboard/parametres/conservation`, { retention_days: '30' })).to.equal(403);
      expect((await db()('accounts').where({ id: accountId }).first('retention_days')).retention_days).to.equal(90);
    });
  });

  it('an owner erases a final mailing from the mailings page; a mailing under way has no button; a developer has none and is refused', async () => {
    await dashboard.withPage(async (page) => {
      const { email, accountId } = await dashboard.signedInDeveloper(page);
      const key = await createKey(accountId, 'test', [...SCOPES]);
      const mail = async () =>
        (await call('POST', '/v1/mailings', { key, body: { mode: 'registered', letter: freeLetter, sender, recipient } })).body.id as string;
      const final = await mail();
      const waiting = await mail();
      await call('POST', `/v1/test/mailings/${final}/advance`, { key, body: { step: 4 } });
      const row = (id: string) => `tr[data-mailing-id="${id}"]`;

      await page.goto(`${base}/envois?env=test`);
      expect(await page.$(`${row(waiting)} form.erase`), 'not final').to.equal(null);
      expect(await page.$$eval(`${row(final)} .proofs a`, (links) => links.length)).to.equal(2);
      expect(await dashboard.submit(page, {}, `${row(final)} form.erase button`)).to.equal(200);
      expect(new URL(page.url()).pathname + new URL(page.url()).search).to.equal('/dashboard/envois?env=test');
      expect(await text(page, `${row(final)} .erased`)).to.include('Données personnelles effacées le');
      expect(await text(page, row(final))).to.include('(effacé)');
      expect(await text(page, row(final))).not.to.include('Mairie de Lyon');
      expect(await page.$$eval(`${row(final)} .proofs a`, (links) => links.length), 'no proof to download').to.equal(0);
      expect(await text(page, `${row(final)} .proofs`)).to.include('PDF effacé');
      expect(await page.$(`${row(final)} form.erase`)).to.equal(null);
      const proof = await page.goto(`${base}/envois/${final}/preuves/filing`);
      expect(proof!.status()).to.equal(404);
      const [entry] = await audit(accountId, 'mailing.erased');
      expect(entry).to.include({ target_id: final, actor_label: email });
      expect(entry.details).to.deep.equal({ via: 'developer_space', test: true });
      expect((await call('GET', `/v1/mailings/${final}`, { key })).body.erasedAt).to.be.a('string');

      await page.goto(`${base}/envois?env=test`);
      expect(await forgedPost(page, `/dashboard/envois/${waiting}/effacer`, {})).to.equal(409);
      expect((await call('GET', `/v1/mailings/${waiting}`, { key })).body.erasedAt).to.equal(null);

      const another = await mail();
      await call('POST', `/v1/test/mailings/${another}/advance`, { key, body: { step: 4 } });
      await makeDeveloper(email);
      await page.goto(`${base}/envois?env=test`);
      expect(await page.$(`${row(another)} form.erase`), 'a developer has no button').to.equal(null);
      expect(await forgedPost(page, `/dashboard/envois/${another}/effacer`, {})).to.equal(403);
      expect((await call('GET', `/v1/mailings/${another}`, { key })).body.erasedAt).to.equal(null);
    });
  });
});
