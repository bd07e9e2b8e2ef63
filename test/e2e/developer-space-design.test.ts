import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { call, createKey } from '../support/api.js';
import { expectAccessible, expectNoHorizontalOverflow } from '../support/axe.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';
import { changeAccount } from '../../domain/access/accounts.js';
import { topUp } from '../../domain/billing/ledger.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

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
      // Each title leads to the mailing's own page.
      expect(await page.$eval(`tr[data-mailing-id="${delivered}"] a.mailing-link`, (a) => a.getAttribute('href'))).to.equal(`/dashboard/envois/${delivered}`);
      // The home page's overview of a new account: its test mailings counted, empty states for the rest.
      await page.goto(base);
      expect(await page.$eval('#month-tests', (e) => e.textContent!.replace(/\s+/g, ' ').trim())).to.match(/^2 envoi\(s\) de test ce mois-ci/);
      expect(await page.$('#month-empty a[href="/dashboard/envois/nouveau"]')).to.not.equal(null);
      expect(await page.$('#balance-empty a[href="/dashboard/solde"]')).to.not.equal(null);
      expect(await page.$('#webhooks-empty a[href="/dashboard/webhooks"]')).to.not.equal(null);
      // The grouped menu.
      const groups = await page.$$eval('header nav .nav-title', (titles) => titles.map((t) => t.textContent!.trim()));
      expect(groups).to.deep.equal(['Envoyer', 'Suivre', 'Intégrer', 'Facturation', 'Compte']);
    });
  });

  it('the menu marks the current page: aria-current="page" on its link, its group shown as current, both styled', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const key = await createKey(accountId, 'test', [...SCOPES]);
      const mailing = (await call('POST', '/v1/mailings', { key, body: { mode: 'ar', letter: freeLetter, sender, recipient } })).body.id as string;
      const cases = [
        { path: '', link: '/dashboard', group: null },
        { path: '/envois/lots', link: '/dashboard/envois/lots', group: 'Envoyer' },
        { path: '/envois?env=test', link: '/dashboard/envois', group: 'Suivre' },
        { path: `/envois/${mailing}`, link: '/dashboard/envois', group: 'Suivre' },
        { path: '/webhooks/livraisons', link: '/dashboard/webhooks', group: 'Intégrer' },
        { path: '/solde', link: '/dashboard/solde', group: 'Facturation' },
        { path: '/equipe', link: '/dashboard/equipe', group: 'Compte' },
      ];
      for (const expected of cases) {
        await page.goto(`${base}${expected.path}`);
        // Read as text in the page (these files are compiled without the DOM's types).
        const marked = (await page.evaluate(`[...document.querySelectorAll('header nav a[aria-current=page]')].map((a) => ({
          href: a.getAttribute('href'),
          group: a.closest('.nav-group')?.querySelector('.nav-title')?.textContent.trim() ?? null,
          weight: getComputedStyle(a).fontWeight,
          colour: getComputedStyle(a).color,
        }))`)) as { href: string; group: string | null; weight: string; colour: string }[];
        expect(marked, expected.path).to.have.length(1);
        expect(marked[0]).to.include({ href: expected.link, group: expected.group, weight: '700' });
        const currentGroups = await page.$$eval('header nav .nav-group[data-current] .nav-title', (titles) => titles.map((t) => t.textContent!.trim()));
        expect(currentGroups, expected.path).to.deep.equal(expected.group ? [expected.group] : []);
        // Seen as different from the other links: another weight and colour; the group with a bar beside it.
        const other = (await page.evaluate(
          `(() => { const a = document.querySelector('header nav .nav-group a:not([aria-current])'); return { weight: getComputedStyle(a).fontWeight, colour: getComputedStyle(a).color }; })()`,
        )) as { weight: string; colour: string };
        expect(other.weight).to.not.equal('700');
        expect(other.colour).to.not.equal(marked[0]!.colour);
        if (expected.group)
          expect(await page.evaluate(`getComputedStyle(document.querySelector('header nav .nav-group[data-current]')).borderLeftStyle`)).to.equal('solid');
      }
    });
  });

  it('a mailing on its own page: its steps with French dates, its tracking number, its proofs, the webhooks it caused; empty states say what to do', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      await dashboard.withPage(async (page) => {
        const { accountId } = await dashboard.signedInDeveloper(page);
        const key = await createKey(accountId, 'test', [...SCOPES]);
        const mail = async (): Promise<{ id: string; trackingNumber: string }> =>
          (await call('POST', '/v1/mailings', { key, body: { mode: 'ar', letter: freeLetter, sender, recipient, reference: 'contrat-17' } })).body as {
            id: string;
            trackingNumber: string;
          };
        // Before any webhook endpoint: the empty states.
        const first = await mail();
        await visit(page, `/envois/${first.id}`);
        expect(await dashboard.heading(page)).to.equal(freeLetter.title);
        expect(await page.$('#no-proofs')).to.not.equal(null);
        expect(await page.$eval('#no-deliveries a', (a) => a.getAttribute('href'))).to.equal('/dashboard/webhooks');

        await page.goto(`${base}/webhooks`);
        await page.$eval('#url', (input, v) => ((input as unknown as { value: string }).value = v), receiver.url);
        await page.click('input[name=env][value=test]');
        expect(await dashboard.submit(page, {}, 'form[action="/dashboard/webhooks"] button[type=submit]')).to.equal(200);
        const second = await mail();
        await call('POST', `/v1/test/mailings/${second.id}/advance`, { key, body: { step: 4 } });
        const api = (await call('GET', `/v1/mailings/${second.id}`, { key })).body as { events: { status: string; at: string }[]; proofs: { kind: string }[] };
        await visit(page, `/envois/${second.id}`);
        expect(await page.$eval('#mailing-status', (p) => p.getAttribute('data-status'))).to.equal('delivered');
        expect(await page.$eval('#tracking-number', (c) => c.textContent!.trim())).to.equal(second.trackingNumber);
        const steps = (await page.$$eval('#timeline li', (lis) =>
          lis.map((li) => ({
            status: li.getAttribute('data-status'),
            date: li.querySelector('time')!.textContent!.trim(),
            at: li.querySelector('time')!.getAttribute('datetime'),
          })),
        )) as { status: string; date: string; at: string }[];
        expect(steps.map((st) => st.status)).to.deep.equal(api.events.map((e) => e.status));
        const paris = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });
        for (const st of steps) {
          expect(st.date).to.match(/^\d{1,2} (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4} à \d{2}:\d{2}$/);
          expect(st.date).to.equal(paris.format(new Date(st.at)));
        }
        const proofLinks = await page.$$eval('#proofs a', (as) => as.map((a) => a.getAttribute('data-proof')));
        expect(proofLinks).to.deep.equal(api.proofs.map((p) => p.kind));
        expect(proofLinks.length).to.be.above(0);
        const proof = await fetch(new URL(`/dashboard/envois/${second.id}/preuves/${proofLinks[0]}`, base), {
          headers: { Cookie: (await page.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
        });
        expect(proof.headers.get('content-type')).to.equal('application/pdf');
        // What it printed: the free-form letter rendered again from its layout, its text in the PDF.
        const preview = await page.$eval('.letter-preview iframe', (frame) => frame.getAttribute('src'));
        expect(preview).to.equal(`/dashboard/envois/${second.id}/apercu`);
        const printed = await fetch(new URL(preview!, base), { headers: { Cookie: (await page.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } });
        expect(printed.headers.get('content-type')).to.equal('application/pdf');
        const bytes = Buffer.from(await printed.arrayBuffer());
        expect(bytes.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
        // The deliveries of the events this mailing caused, and none of the other one's.
        const types = await page.$$eval('#mailing-deliveries tr[data-delivery-id] code', (codes) => codes.map((c) => c.textContent!.trim()));
        expect(types).to.include('mailing.created');
        expect(types.every((t) => t.startsWith('mailing.'))).to.equal(true);
        const ours = await stack()
          .db('webhook_deliveries as d')
          .join('webhook_events as e', 'e.id', 'd.event_id')
          .where({ 'e.shipment_id': second.id })
          .count<{ count: string }[]>('* as count');
        expect(types).to.have.length(Number(ours[0]!.count));
        // The home page's success rate of the endpoint, once its deliveries are done.
        for (let i = 0; i < 100; i++) {
          const pending = await stack().db('webhook_deliveries').where({ account_id: accountId, status: 'pending' }).count<{ count: string }[]>('* as count');
          if (Number(pending[0]!.count) === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await visit(page, '');
        expect(await page.$eval('#webhooks-overview li', (li) => li.getAttribute('data-rate'))).to.equal('100');
        expect(await page.$eval('#webhooks-overview li .rate', (e) => e.textContent!.trim())).to.equal('100 %');
        // Not another account's.
        await dashboard.withPage(async (other) => {
          await dashboard.signedInDeveloper(other);
          expect((await other.goto(`${base}/envois/${second.id}`))!.status()).to.equal(404);
        });
      });
    } finally {
      await receiver.stop();
    }
  });

  it('the home page charts the month’s production mailings by mode and their spend, and the balance over time (SVG drawn by the server)', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      await topUp(stack().db, accountId, 10_000, 'test setup');
      await changeAccount(stack().db, accountId, { liveEnabled: true });
      const live = await createKey(accountId, 'live', [...SCOPES]);
      const created = await call('POST', '/v1/mailings', { key: live, body: { mode: 'registered', letter: freeLetter, sender, recipient } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const amount = created.body.amountCents as number;
      expect(amount).to.be.above(0);
      await visit(page, '');
      const money = (cents: number): string => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);
      const bars = await page.$$eval('#month-chart svg rect.chart-bar', (rects) => rects.map((r) => Number(r.getAttribute('width'))));
      expect(bars).to.have.length(3); // simple, registered, AR
      expect(bars[0]).to.equal(0);
      expect(bars[1]).to.be.above(0);
      expect(bars[2]).to.equal(0);
      const title = await page.$eval('#month-chart title', (t) => t.textContent!);
      expect(title).to.include(`Lettre recommandée 1 · ${money(amount)} HT`);
      expect(await page.$eval('#month-spend', (p) => p.textContent!.replace(/\s+/g, ' ').trim())).to.equal(
        `Total : 1 envoi(s), ${money(amount)} HT.`.replace(/\s+/g, ' '),
      );
      expect(await page.$eval('#balance-now', (p) => p.textContent!.trim())).to.equal(money(10_000 - amount));
      // A step line: the top-up, then the debit.
      expect(await page.$eval('#balance-chart path.chart-line', (p) => p.getAttribute('d'))).to.match(/^M \d+ \d+ H \d+ V \d+ H \d+$/);
    });
  });
});
