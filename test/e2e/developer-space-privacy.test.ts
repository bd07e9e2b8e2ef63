import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';
import { balanceOf, call, createKey } from '../support/api.js';
import { llm } from '../support/llm-server.js';
import { topUp } from '../../domain/billing/ledger.js';
import { configuredHost, PROCESSORS } from '../../domain/privacy/processors.js';
import type { Config } from '../../lib/config.js';

/** The account's AI setting in `/dashboard/parametres` and the sub-processors page `/dashboard/confidentialite` (issue 53). */
describe('developer space: AI setting and personal data page', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;
  /** The configuration the developer space runs with (its own SMTP server). */
  let spaceConfig: Config;

  before(async () => {
    dashboard = await startDashboard((config) => (spaceConfig = config));
    ({ base } = dashboard);
  });
  after(() => dashboard?.close());
  beforeEach(() => llm.reset());

  const db = () => stack().db;
  const text = (page: Page, selector: string): Promise<string> => page.$eval(selector, (e) => e.textContent!.replace(/\s+/g, ' ').trim());
  const toolCall = (key: string) =>
    call('POST', '/v1/ai/tools/corriger-orthographe', {
      key,
      body: { inputs: { text: 'bonjour ,je vous ecris pour signaler un probleme', spelling: 'traditionnelle' } },
    });

  it('a new account has AI off; its owner turns it on and off from the settings, which name the provider; audited; the API follows at once', async () => {
    await dashboard.withPage(async (page) => {
      const { email, accountId } = await dashboard.signedInDeveloper(page);
      await db()('accounts').where({ id: accountId }).update({ live_enabled: true });
      await topUp(db(), accountId, 1000, 'test setup');
      const liveKey = await createKey(accountId, 'live', ['ai:write']);
      const refused = await toolCall(liveKey);
      expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
      expect(refused.body.error.code).to.equal('ai_not_enabled');

      await page.goto(`${base}/parametres`);
      expect(await text(page, '#ai-state')).to.include('désactivées');
      const host = new URL(stack().config.llm.baseUrl).host;
      expect(await text(page, '#ai-provider')).to.include(host);
      expect(await page.$$eval('a', (as) => as.map((a) => a.getAttribute('href')))).to.include('/dashboard/confidentialite');
      expect(await dashboard.submit(page, {}, '#ai-form button')).to.equal(200);
      expect(await text(page, '[role=status]')).to.include('activées');
      expect(await text(page, '#ai-state'))
        .to.include('activées')
        .and.to.include(email);

      llm.answer('tool-corriger-orthographe');
      const answered = await toolCall(liveKey);
      expect(answered.status, JSON.stringify(answered.body)).to.equal(200);
      expect(llm.calls).to.have.length(1);
      expect(await balanceOf(accountId)).to.equal(990);

      expect(await dashboard.submit(page, {}, '#ai-form button')).to.equal(200);
      expect(await text(page, '#ai-state')).to.include('désactivées');
      expect((await toolCall(liveKey)).body.error.code).to.equal('ai_not_enabled');
      expect(llm.calls).to.have.length(1);

      const audit = await db()('audit_log')
        .where({ account_id: accountId })
        .whereLike('action', 'account.ai_%')
        .orderBy('created_at')
        .select('action', 'actor_label', 'details');
      expect(audit.map((a) => [a.action, a.actor_label, a.details.provider])).to.deep.equal([
        ['account.ai_enabled', email, host],
        ['account.ai_disabled', email, host],
      ]);
      await page.goto(`${base}/audit`);
      expect(await text(page, 'main'))
        .to.include('Fonctions d’IA activées')
        .and.to.include('Fonctions d’IA désactivées');
    });
  });

  it('a member who is not an owner sees the setting but cannot change it (403, nothing changes)', async () => {
    await dashboard.withPage(async (page, _context, address) => {
      const { email, accountId } = await dashboard.signedInDeveloper(page);
      await db()('developer_users').where({ email }).update({ role: 'developer' });
      await page.goto(`${base}/parametres`);
      expect(await text(page, '#ai-state')).to.include('désactivées');
      expect(await page.$('#ai-form')).to.equal(null);
      const cookie = (await page.cookies()).find((c) => c.name === 'svc_dashboard')!;
      const csrf = await page.$eval('[name=_csrf]', (e) => (e as unknown as { value: string }).value);
      const res = await fetch(`${base}/parametres/ia`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `svc_dashboard=${cookie.value}`, 'X-Forwarded-For': address },
        body: new URLSearchParams({ _csrf: csrf, enabled: '1' }).toString(),
      });
      expect(res.status).to.equal(403);
      expect((await db()('accounts').where({ id: accountId }).first('ai_enabled_at')).ai_enabled_at).to.equal(null);
    });
  });

  it('/dashboard/confidentialite lists every sub-processor of domain/privacy/processors.ts with this deployment’s host, linked from the menu', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      expect(await page.$$eval('header nav a', (as) => as.map((a) => a.getAttribute('href')))).to.include('/dashboard/confidentialite');
      await page.goto(`${base}/confidentialite`);
      expect(await dashboard.heading(page)).to.equal('Données personnelles');
      const rows = await page.$$eval('#processors tbody tr', (trs) =>
        trs.map((tr) => ({
          id: tr.getAttribute('data-processor'),
          cells: [...tr.querySelectorAll('td')].map((td) => td.textContent!.replace(/\s+/g, ' ').trim()),
        })),
      );
      expect(rows.map((r) => r.id)).to.deep.equal(PROCESSORS.map((p) => p.id));
      for (const p of PROCESSORS) {
        const row = rows.find((r) => r.id === p.id)!;
        expect(row.cells.slice(0, 4)).to.deep.equal([p.name, p.purpose.fr, p.receives.fr, p.hosted.fr]);
        expect(row.cells[4], p.id).to.equal(configuredHost(spaceConfig, p.id) ?? 'non utilisé ici');
      }
      expect(rows.find((r) => r.id === 'ai')!.cells[4]).to.equal(new URL(stack().config.llm.baseUrl).host);
      expect(rows.find((r) => r.id === 'email')!.cells[4]).to.equal(new URL(spaceConfig.mail.smtpUrl!).host);
      expect(await text(page, '#privacy-ai')).to.include('Désactivées');
      expect(await text(page, 'main'))
        .to.include('docs/privacy.md')
        .and.to.include('article 28');
    });
  });
});
