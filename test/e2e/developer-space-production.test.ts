import { admin } from '../support/admin.js';
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { textPdf } from '../support/own-pdfs.js';
import { readPdf } from '../support/pdf.js';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { call, createKey, eventually } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { companyDirectory } from '../support/partner-server.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';
import { SCOPES } from '../../domain/access/scopes.js';

const USE_CASE = 'Envoi de lettres recommandées de résiliation pour nos clients, environ 200 par mois.';

describe('developer space: production access, mailings, service requests (browser)', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;

  before(async () => {
    dashboard = await startDashboard();
    ({ base } = dashboard);
  });
  after(() => dashboard?.close());

  const api = (path: string, key: string): Promise<Response> => fetch(`${stack().api.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const state = (page: Page): Promise<string | null> => page.$eval('#production-status', (p) => p.getAttribute('data-state'));
  const inputValue = (page: Page, name: string): Promise<string> => page.$eval(`[name=${name}]`, (i) => (i as unknown as { value: string }).value);
  /** The signed-in page's session cookie, for requests made outside the browser. */
  const cookieOf = async (page: Page): Promise<string> => `svc_dashboard=${(await page.cookies()).find((c) => c.name === 'svc_dashboard')!.value}`;
  const sandboxKeyOn = (page: Page): Promise<string> => page.$eval('#new-key', (e) => e.textContent!.trim());

  it('production access: the SIRET is checked in the directory (refusals say why), the request waits in `admin account pending`, live-enable opens production and live keys work', async () => {
    const { db } = stack();
    companyDirectory.reset();
    await db('partner_cache').whereIn('key', ['company:35600000000048', 'company:98765432400001']).delete();
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const liveKey = await createKey(accountId, 'live', [...SCOPES]);
      const refused = await api('/v1/catalogue', liveKey);
      expect(refused.status).to.equal(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).to.equal('live_not_enabled');

      await page.goto(`${base}/production`);
      expect(await dashboard.heading(page)).to.equal('Accès à la production');
      expect(await state(page)).to.equal('none');

      const attempt = async (fields: Record<string, string>): Promise<number> => {
        await page.goto(`${base}/production`);
        return dashboard.submit(page, { legalName: '', address: '', useCase: USE_CASE, ...fields });
      };
      expect(await attempt({ siret: '3560000000004' })).to.equal(400);
      expect(await dashboard.alert(page)).to.include('exactement 14 chiffres');
      expect(await attempt({ siret: '12345678901234' })).to.equal(400);
      expect(await dashboard.alert(page)).to.include('clé de contrôle');
      expect(companyDirectory.requests, 'refused before any lookup').to.deep.equal([]);
      expect(await attempt({ siret: '35600000000048', useCase: 'trop court' })).to.equal(400);
      expect(await dashboard.alert(page)).to.equal('Cas d’usage : 20 caractères au moins.');

      expect(await attempt({ siret: '98765432400001' })).to.equal(422);
      expect(await dashboard.alert(page)).to.include('Aucun établissement ne porte le SIRET 98765432400001');
      expect(await inputValue(page, 'siret'), 'the form keeps what was typed').to.equal('98765432400001');

      // A legal name that is not the directory's: refused, and the directory's is offered.
      expect(await attempt({ siret: '356 000 000 00048', legalName: 'Acme Logistique' })).to.equal(422);
      expect(await dashboard.alert(page)).to.include('« LA POSTE »');
      expect(await inputValue(page, 'legalName')).to.equal('LA POSTE');
      expect(await db('production_access_requests').where({ account_id: accountId }).count({ n: '*' })).to.deep.equal([{ n: '0' }]);

      // Sent again without a legal name (the directory's is taken): nothing to compare, so it
      // waits for an operator, with what was sent (the address is the directory's).
      expect(await dashboard.submit(page, { legalName: '' })).to.equal(200);
      expect(new URL(page.url()).pathname).to.equal('/dashboard/production');
      expect(await state(page)).to.equal('pending');
      const sent = await page.$eval('#production-request', (dl) => dl.textContent!);
      expect(sent).to.include('35600000000048').and.include('LA POSTE').and.include('9 RUE DU COLONEL PIERRE AVIA 75015 PARIS').and.include(USE_CASE);
      expect(await page.$('form[action="/dashboard/production"]')).to.equal(null);
      // Our own check: neither billed nor counted in the free quota.
      expect(await db('ledger_entries').where({ account_id: accountId }).count({ n: '*' })).to.deep.equal([{ n: '0' }]);
      expect(await db('usage_counters').where({ account_id: accountId }).count({ n: '*' })).to.deep.equal([{ n: '0' }]);

      // One open request per account.
      const csrf = await page.$eval('input[name=_csrf]', (i) => (i as unknown as { value: string }).value);
      const again = await fetch(`${base}/production`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: await cookieOf(page) },
        body: new URLSearchParams({ _csrf: csrf, siret: '35600000000048', useCase: USE_CASE }).toString(),
      });
      expect(again.status).to.equal(409);
      expect(await again.text()).to.include('Une demande est déjà en attente');

      expect(await page.$eval('#production-status', (p) => p.textContent!)).to.include('en général sous un jour ouvré');
      const pending = await admin(['account', 'pending']);
      expect(pending.code).to.equal(0);
      const listed = pending.json.data.find((r: { accountId: string }) => r.accountId === accountId);
      expect(listed).to.deep.include({ siret: '35600000000048', legalName: 'LA POSTE', useCase: USE_CASE, status: 'pending', decidedAt: null });
      expect(listed.company).to.include({ name: 'LA POSTE', status: 'active' });
      expect((await api('/v1/catalogue', liveKey)).status).to.equal(403);

      const enabled = await admin(['account', 'live-enable', '--account', accountId]);
      expect(enabled).to.deep.equal({ code: 0, json: { id: accountId, status: 'active', liveEnabled: true } });
      await page.reload();
      expect(await state(page)).to.equal('open');
      expect(await page.$eval('#production-request', (dl) => dl.textContent!)).to.include('Validée le');
      expect(
        (
          await eventually(
            () => api('/v1/catalogue', liveKey),
            (r) => r.status === 200,
          )
        ).status,
      ).to.equal(200);
      expect((await admin(['account', 'pending'])).json.data.map((r: { accountId: string }) => r.accountId)).not.to.include(accountId);
    });
  });

  it('production opens at once when the directory confirms the company under the legal name given, the check in the audit log', async () => {
    const { db } = stack();
    companyDirectory.reset();
    await db('partner_cache').where({ key: 'company:35600000000048' }).delete();
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const liveKey = await createKey(accountId, 'live', [...SCOPES]);
      await page.goto(`${base}/production`);
      expect(await dashboard.submit(page, { siret: '35600000000048', legalName: 'La Poste', address: '', useCase: USE_CASE })).to.equal(200);
      expect(await state(page)).to.equal('open');
      expect(await page.$eval('#production-request', (dl) => dl.textContent!)).to.include('automatiquement');
      expect(
        (
          await eventually(
            () => api('/v1/catalogue', liveKey),
            (r) => r.status === 200,
          )
        ).status,
      ).to.equal(200);
      const [request] = await db('production_access_requests').where({ account_id: accountId });
      expect(request).to.include({ status: 'approved', decided_by: 'automatic', legal_name: 'La Poste' });
      const audit = await db('audit_log')
        .where({ account_id: accountId })
        .whereIn('action', ['production.requested', 'production.checked', 'account.live_enabled']);
      // One transaction: the same time for all three.
      expect(audit.map((e) => [e.action, e.actor_type])).to.have.deep.members([
        ['production.requested', 'developer'],
        ['production.checked', 'system'],
        ['account.live_enabled', 'system'],
      ]);
      expect(audit.find((e) => e.action === 'production.checked').details).to.include({
        siret: '35600000000048',
        result: 'confirmed',
        directoryName: 'LA POSTE',
        directoryStatus: 'active',
      });
      expect(audit.find((e) => e.action === 'account.live_enabled').details).to.include({ automatic: true, siret: '35600000000048' });
      expect((await admin(['account', 'pending'])).json.data.map((r: { accountId: string }) => r.accountId)).not.to.include(accountId);
    });
  });

  it('the directory down: the request is kept, checked again by a workflow when it answers, and production opens (or the refusal says why)', async () => {
    const { db } = stack();
    await db('partner_cache').whereIn('key', ['company:35600000000048', 'company:98765432400001']).delete();
    for (const [siret, legalName, outcome] of [
      ['35600000000048', 'LA POSTE', 'open'],
      ['98765432400001', 'Acme', 'refused'],
    ] as const) {
      await dashboard.withPage(async (page) => {
        const { accountId } = await dashboard.signedInDeveloper(page);
        await page.goto(`${base}/production`);
        companyDirectory.failNext = 1_000;
        expect(await dashboard.submit(page, { siret, legalName, address: '', useCase: USE_CASE }), siret).to.equal(200);
        expect(await state(page)).to.equal('checking');
        expect(await page.$eval('#production-status', (p) => p.textContent!)).to.include('sera refaite automatiquement');
        const [kept] = await db('production_access_requests').where({ account_id: accountId });
        expect(kept).to.include({ status: 'pending', company: null, legal_name: legalName });
        // Listed for operators meanwhile, never lost.
        expect((await admin(['account', 'pending'])).json.data.map((r: { accountId: string }) => r.accountId)).to.include(accountId);
        companyDirectory.failNext = 0;
        const decided = await eventually(
          () => db('production_access_requests').where({ id: kept.id }).first(),
          (r) => r.status !== 'pending',
          60_000,
          500,
        );
        await page.reload();
        if (outcome === 'open') {
          expect(decided).to.include({ status: 'approved', decided_by: 'automatic' });
          expect(await state(page)).to.equal('open');
        } else {
          expect(decided).to.include({ status: 'refused', refusal: 'unknown_company' });
          expect(await state(page)).to.equal('none');
          expect(await page.$eval('#production-refused', (p) => p.textContent!)).to.include('aucun établissement ne porte ce SIRET');
        }
        const actions = (await db('audit_log').where({ account_id: accountId })).map((e) => e.action);
        expect(actions).to.include.members(
          outcome === 'open' ? ['production.requested', 'production.checked', 'account.live_enabled'] : ['production.requested', 'production.refused'],
        );
      });
    }
  });

  it('mailings: the account’s mailings with their events, filtered and paged; a proof downloads for the owner only', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      const key = await sandboxKeyOn(page);
      const post = (body: unknown) => call('POST', '/v1/mailings', { key, body });
      const posted = (await post({ mode: 'simple', letter: freeLetter, sender, recipient, reference: 'DASH-A' })).body;
      const waiting = (await post({ mode: 'registered', letter: freeLetter, sender, recipient, reference: 'DASH-B' })).body;
      expect(posted.id).to.be.a('string');
      const advanced = await call('POST', `/v1/test/mailings/${posted.id}/advance`, { key, body: { step: 2 } });
      expect(advanced.body.proofs.map((p: { kind: string }) => p.kind)).to.deep.equal(['filing']);

      const rows = (): Promise<string[]> => page.$$eval('#mailings tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-mailing-id')!));
      await page.goto(`${base}/envois`);
      expect(await dashboard.heading(page)).to.equal('Envois');
      expect(await rows()).to.deep.equal([waiting.id, posted.id]);
      const postedRow = `#mailings tr[data-mailing-id="${posted.id}"]`;
      expect(await page.$$eval(`${postedRow} ol.events li`, (lis) => lis.map((li) => li.textContent))).to.have.length(3);
      expect(await page.$eval(postedRow, (tr) => tr.textContent))
        .to.include("Remise à l'opérateur postal")
        .and.include('DASH-A');
      expect(await page.$$(`#mailings tr[data-mailing-id="${waiting.id}"] a[data-proof]`)).to.have.length(0);

      // Filters: status, reference, environment.
      expect(await dashboard.submit(page, { status: 'posted' })).to.equal(200);
      expect(await rows()).to.deep.equal([posted.id]);
      expect(await dashboard.submit(page, { status: '', reference: 'DASH-B' })).to.equal(200);
      expect(await rows()).to.deep.equal([waiting.id]);
      expect(await dashboard.submit(page, { reference: '', env: 'live' })).to.equal(200);
      expect(await page.$('#no-mailings')).to.not.equal(null);
      // Pages: the API's cursor, one mailing a page.
      await page.goto(`${base}/envois?limit=1`);
      expect(await rows()).to.deep.equal([waiting.id]);
      await Promise.all([page.waitForNavigation(), page.click('#next-page')]);
      expect(await rows()).to.deep.equal([posted.id]);
      expect(await page.$('#next-page')).to.equal(null);
      // Bad filters: a clear message, 400.
      expect((await page.goto(`${base}/envois?reference=${'x'.repeat(31)}`))!.status()).to.equal(400);
      expect(await dashboard.alert(page)).to.equal('Référence : 30 caractères au plus.');
      expect((await page.goto(`${base}/envois?status=lost`))!.status()).to.equal(400);
      expect(await dashboard.alert(page)).to.include('Statut');
      expect((await page.goto(`${base}/envois?cursor=forged`))!.status()).to.equal(400);
      expect(await dashboard.alert(page)).to.include('Ce lien de page n’est plus valide');

      // The proof, for the owner's session.
      await page.goto(`${base}/envois`);
      const href = await page.$eval(`${postedRow} a[data-proof=filing]`, (a) => a.getAttribute('href')!);
      expect(href).to.equal(`/dashboard/envois/${posted.id}/preuves/filing`);
      const url = new URL(href, base).toString();
      const pdf = await fetch(url, { headers: { Cookie: await cookieOf(page) } });
      expect(pdf.status).to.equal(200);
      expect(pdf.headers.get('content-type')).to.equal('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).to.equal('%PDF-');
      expect((await fetch(`${base}/envois/${waiting.id}/preuves/filing`, { headers: { Cookie: await cookieOf(page) } })).status).to.equal(404);
      expect((await fetch(url, { redirect: 'manual' })).status, 'signed out: to the sign-in page').to.equal(302);

      // Another account's session: 404, as for a mailing that does not exist.
      await dashboard.withPage(async (other) => {
        await dashboard.signedInDeveloper(other);
        const response = await other.goto(url);
        expect(response!.status()).to.equal(404);
        expect(await dashboard.heading(other)).to.equal('Preuve introuvable');
        await other.goto(`${base}/envois`);
        expect(await other.$('#no-mailings')).to.not.equal(null);
      });
    });
  });

  it('mailings: an own-PDF mailing shows its SHA-256, its sheets and a preview of page 1, for the owner only; a mailing its send date and warnings', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      const key = await sandboxKeyOn(page);
      const pdf = await textPdf({ pages: 3 });
      const letter = { pdf: Buffer.from(pdf).toString('base64'), title: 'Mon PDF' };
      const created = await call('POST', '/v1/mailings', { key, body: { mode: 'simple', letter, sender, recipient, options: { duplex: true } } });
      expect(created.status, created.text).to.equal(201);
      const id = created.body.id as string;
      await page.goto(`${base}/envois`);
      const row = `#mailings tr[data-mailing-id="${id}"]`;
      expect(await page.$eval(`${row} .own-pdf code.sha256`, (code) => code.textContent)).to.equal(createHash('sha256').update(pdf).digest('hex'));
      // 3 pages in duplex: 2 sheets, plus the address sheet.
      expect(await page.$eval(`${row} .own-pdf .sheets`, (span) => span.textContent)).to.equal('3');
      const src = await page.$eval(`${row} iframe.pdf-preview`, (frame) => frame.getAttribute('src')!);
      expect(src).to.equal(`/dashboard/envois/${id}/apercu`);
      // The page lets its own previews be framed, nothing else.
      expect((await page.goto(`${base}/envois`))!.headers()['content-security-policy']).to.include("frame-src 'self'");
      const preview = await fetch(new URL(src, base), { headers: { Cookie: await cookieOf(page) } });
      expect(preview.status).to.equal(200);
      expect(preview.headers.get('content-type')).to.equal('application/pdf');
      expect(preview.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
      const shown = await PDFDocument.load(await preview.arrayBuffer());
      expect(shown.getPageCount()).to.equal(1);
      expect((await readPdf(new Uint8Array(await shown.save()))).text).to.include('Page 1 du document client');
      // A free letter has no preview; it shows its send date and its warnings (an address the base does not confirm, posted leniently).
      const sendAt = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
      const unconfirmed = { ...recipient, lines: ['7 rue Imaginaire'] };
      const free = await call('POST', '/v1/mailings', {
        key,
        body: { mode: 'simple', letter: freeLetter, sender, recipient: unconfirmed, sendAt, options: { addressCheck: 'lenient' } },
      });
      expect(free.status, free.text).to.equal(201);
      await page.goto(`${base}/envois`);
      const freeRow = `#mailings tr[data-mailing-id="${free.body.id}"]`;
      expect(await page.$eval(`${freeRow} .send-at`, (note) => note.getAttribute('data-send-at'))).to.equal(sendAt);
      expect(await page.$eval(`${freeRow} .warnings li`, (li) => [li.getAttribute('data-warning'), li.textContent])).to.deep.equal([
        'address_unverified',
        `Adresse non confirmée par la Base Adresse Nationale (recipient.lines.0) : ${free.body.warnings[0].message}`,
      ]);
      expect(await page.$$(`${row} .warnings`)).to.have.length(0);
      // A free-form letter's preview is the letter it prints, rendered again from its layout.
      const freePreview = await fetch(new URL(`/dashboard/envois/${free.body.id}/apercu`, base), { headers: { Cookie: await cookieOf(page) } });
      expect(freePreview.status).to.equal(200);
      expect(freePreview.headers.get('content-type')).to.equal('application/pdf');
      // Another account's session gets 404.
      await dashboard.withPage(async (other) => {
        await dashboard.signedInDeveloper(other);
        expect((await other.goto(new URL(src, base).toString()))!.status()).to.equal(404);
      });
    });
  });

  it('service requests: submitted from the page with the API’s validation, listed there and by GET /v1/requests', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      const key = await sandboxKeyOn(page);
      await page.goto(`${base}/demandes`);
      expect(await dashboard.heading(page)).to.equal('Demandes de service');
      expect(await page.$('#no-requests')).to.not.equal(null);

      const description = 'Une lettre de demande de remboursement de dépôt de garantie au bailleur.';
      expect(await dashboard.submit(page, { kind: 'letter', title: 'ab', description })).to.equal(400);
      expect(await dashboard.alert(page)).to.equal('Titre : 3 caractères au moins.');
      expect(await inputValue(page, 'description'), 'the form keeps what was typed').to.equal(description);
      expect(await dashboard.submit(page, { title: 'Restitution du dépôt de garantie', description: 'Trop bref' })).to.equal(400);
      expect(await dashboard.alert(page)).to.equal('Description : 10 caractères au moins.');

      expect(
        await dashboard.submit(page, { description, contactEmail: 'produit@example.fr', example: 'Madame, Monsieur, je vous prie de me restituer…' }),
      ).to.equal(200);
      expect(new URL(page.url()).pathname).to.equal('/dashboard/demandes');
      expect(await page.$eval('[role=status]', (p) => p.textContent)).to.include('Demande envoyée');
      const listed = await page.$$eval('#requests tbody tr', (trs) => trs.map((tr) => tr.textContent!));
      expect(listed).to.have.length(1);
      expect(listed[0]).to.include('Restitution du dépôt de garantie').and.include('Reçue');

      const fromApi = await call('GET', '/v1/requests', { key });
      expect(fromApi.status).to.equal(200);
      expect(fromApi.body.data).to.have.length(1);
      expect(fromApi.body.data[0]).to.deep.include({
        kind: 'letter',
        title: 'Restitution du dépôt de garantie',
        description,
        example: 'Madame, Monsieur, je vous prie de me restituer…',
        useCase: null,
        contactEmail: 'produit@example.fr',
        status: 'received',
      });
      // One made through the API is listed on the page too, most recent first.
      const created = await call('POST', '/v1/requests', {
        key,
        body: { kind: 'calculator', title: 'Indemnité de licenciement', description: 'Le calcul légal selon l’ancienneté.' },
      });
      expect(created.status).to.equal(201);
      await page.reload();
      expect(await page.$$eval('#requests tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-request-id')))).to.deep.equal([
        created.body.id,
        fromApi.body.data[0].id,
      ]);
      expect((await page.goto(`${base}/demandes?cursor=forged`))!.status()).to.equal(400);
      expect(await dashboard.alert(page)).to.include('Ce lien de page n’est plus valide');
    });
  });
});
