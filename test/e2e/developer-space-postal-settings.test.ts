import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';

/**
 * The developer space's part of issue 55: the account's return envelope and the operator's archive
 * durations (Paramètres, « Courrier », owners only, audit-logged).
 */
describe('developer space: return envelope and archive settings', function () {
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
  const settings = (accountId: string) =>
    db()('accounts').where({ id: accountId }).first('return_envelope_type', 'return_envelope_id', 'archive_years_simple', 'archive_years_registered');

  it('an owner sets, checks and removes the return envelope and the archive; a developer sees them and cannot change them', async () => {
    const envelopeId = '5a0c9e3b-2f71-4d8a-b6e4-1c9d7f2a3b58';
    await dashboard.withPage(async (page) => {
      const { email, accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/parametres`);
      expect(await text(page, '#return-envelope-state')).to.include('Aucune enveloppe retour');
      expect(await text(page, '#archive-state')).to.include('lettres simples par défaut');

      expect(await dashboard.submit(page, { return_envelope_type: 'PREPAID_ENVELOPE', return_envelope_id: 'abc' }, '#return-envelope-form button')).to.equal(
        400,
      );
      expect(await dashboard.alert(page)).to.include('UUID');
      expect(
        await dashboard.submit(page, { return_envelope_type: 'PREPAID_ENVELOPE', return_envelope_id: envelopeId }, '#return-envelope-form button'),
      ).to.equal(200);
      expect(await page.$eval('[role=status]', (p) => p.textContent!)).to.include('Enveloppe retour enregistrée');
      expect(await text(page, '#return-envelope-state')).to.include(`enveloppe T (port payé), référence opérateur ${envelopeId}`);
      expect(await dashboard.submit(page, { archive_simple: '1', archive_registered: '10' }, '#archive-form button')).to.equal(200);
      expect(await text(page, '#archive-state')).to.include('lettres simples 1 an, recommandées 10 ans');
      expect(await settings(accountId)).to.deep.equal({
        return_envelope_type: 'PREPAID_ENVELOPE',
        return_envelope_id: envelopeId,
        archive_years_simple: 1,
        archive_years_registered: 10,
      });
      const entries = await db()('audit_log')
        .where({ account_id: accountId })
        .whereIn('action', ['account.return_envelope_changed', 'account.archive_changed']);
      expect(entries.map((e) => e.action).sort()).to.deep.equal(['account.archive_changed', 'account.return_envelope_changed']);
      expect(entries.every((e) => e.actor_label === email)).to.equal(true);

      // Removed: "Aucune".
      expect(await dashboard.submit(page, { return_envelope_type: '' }, '#return-envelope-form button')).to.equal(200);
      expect(await text(page, '#return-envelope-state')).to.include('Aucune enveloppe retour');

      await db()('developer_users').where({ email }).update({ role: 'developer' });
      await page.goto(`${base}/parametres`);
      expect(await page.$('#archive-form')).to.equal(null);
      expect(await page.$('#return-envelope-form')).to.equal(null);
      expect(await text(page, '#archive-state')).to.include('recommandées 10 ans');
      expect(await text(page, 'main')).to.include('Seul un propriétaire du compte peut changer ces réglages');
    });
  });
});
