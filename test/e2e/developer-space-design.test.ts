import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { call, createKey } from '../support/api.js';
import { expectAccessible, expectNoHorizontalOverflow } from '../support/axe.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { SCOPES } from '../../domain/access/scopes.js';

/**
 * Issue 56: the developer space's design. Every page family, signed out and signed in as an owner
 * with sample mailings, at 1280 px and at 390 px: axe-core finds no serious or critical violation
 * (through the dashboard helper's page.goto, and once more here after the width changes), and at
 * 390 px nothing is wider than the screen. DESIGN_SHOTS=DIR keeps a screenshot of each for review.
 */
const SIGNED_OUT = ['/connexion', '/inscription', '/mot-de-passe-oublie'];
const SIGNED_IN = [
  '',
  '/envois/nouveau',
  '/envois/nouveau?type=libre',
  '/envois/nouveau?type=pdf',
  '/envois/lots',
  '/envois?env=test',
  '/envois?env=live',
  '/demandes',
  '/cles',
  '/webhooks',
  '/journal',
  '/production',
  '/solde',
  '/facturation',
  '/parametres',
  '/identite-expediteur',
  '/equipe',
  '/audit',
  '/donnees',
  '/confidentialite',
];
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

describe('developer space: design, accessibility and the 390 px layout (browser, axe-core)', function () {
  this.timeout(300_000);
  let dashboard: Dashboard;
  let base: string;
  const shots = process.env.DESIGN_SHOTS;

  before(async () => {
    dashboard = await startDashboard();
    ({ base } = dashboard);
    if (shots) mkdirSync(shots, { recursive: true });
  });
  after(() => dashboard?.close());

  async function visit(page: Page, path: string): Promise<void> {
    for (const viewport of WIDTHS) {
      await page.setViewport(viewport);
      const response = await page.goto(`${base}${path}`);
      expect(response!.status(), path).to.equal(200);
      await expectAccessible(page);
      if (viewport.width === 390) await expectNoHorizontalOverflow(page);
      if (shots) {
        const name = (path.replace(/[/?=&]+/g, '-').replace(/^-|-$/g, '') || 'accueil') + `-${viewport.width}.png`;
        await page.screenshot({ path: join(shots, name), fullPage: true });
      }
    }
  }

  it('the signed-out pages', async () => {
    await dashboard.withPage(async (page) => {
      for (const path of SIGNED_OUT) await visit(page, path);
    });
  });

  it('every signed-in page family, with mailings in several statuses', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const key = await createKey(accountId, 'test', [...SCOPES]);
      const mail = async (reference: string): Promise<string> =>
        (await call('POST', '/v1/mailings', { key, body: { mode: 'ar', letter: freeLetter, sender, recipient, reference } })).body.id as string;
      const delivered = await mail('facture-2026-0042');
      await mail('relance-2026-0007');
      await call('POST', `/v1/test/mailings/${delivered}/advance`, { key, body: { step: 4 } });
      for (const path of SIGNED_IN) await visit(page, path);
      // The mailings' statuses as badges, the same words as the API's labels.
      await page.goto(`${base}/envois?env=test`);
      const badges = await page.$$eval('#mailings .badge[data-badge-status]', (spans) => spans.map((s) => s.className));
      expect(badges).to.have.length(2);
      expect(badges.every((c) => /badge-(progress|success)/.test(c))).to.equal(true);
      // The grouped menu.
      const groups = await page.$$eval('header nav .nav-title', (titles) => titles.map((t) => t.textContent!.trim()));
      expect(groups).to.deep.equal(['Envoyer', 'Suivre', 'Intégrer', 'Facturation', 'Compte']);
    });
  });
});
