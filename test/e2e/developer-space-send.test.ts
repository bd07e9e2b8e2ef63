import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { HTTPResponse, Page } from 'puppeteer-core';
import { topUp } from '../../domain/billing/ledger.js';
import { priceOf } from '../../domain/billing/prices.js';
import { PREVIEWS_PER_ACCOUNT } from '../../domain/developers/throttle.js';
import { balanceOf } from '../support/api.js';
import { boxLetterValues, freeLetter, recipient, sender } from '../support/fixtures.js';
import { javascriptPdf, textPdf } from '../support/own-pdfs.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';
import { readPdf } from '../support/pdf.js';

/** Sending a letter from the developer space (issue 29, part 2), in a real browser. */
describe('developer space: sending a letter (browser)', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;
  let files: string;

  before(async () => {
    dashboard = await startDashboard();
    ({ base } = dashboard);
    files = mkdtempSync(join(tmpdir(), 'send-pdf-'));
  });
  after(async () => {
    await dashboard?.close();
    rmSync(files, { recursive: true, force: true });
  });

  const cookieOf = async (page: Page): Promise<string> => `svc_dashboard=${(await page.cookies()).find((c) => c.name === 'svc_dashboard')!.value}`;

  /** Sets the named inputs (text, textarea, select) and radios/checkboxes by value. */
  async function fill(page: Page, fields: Record<string, string>): Promise<void> {
    for (const [name, value] of Object.entries(fields)) {
      await page.$eval(`[name="${name}"]`, (input, v) => ((input as unknown as { value: string }).value = v), value);
    }
  }
  const addresses = (to: typeof recipient | null = recipient): Record<string, string> => ({
    sender_name: sender.name,
    sender_lines: sender.lines.join('\n'),
    sender_postcode: sender.postcode,
    sender_city: sender.city,
    ...(to ? { recipient_name: to.name, recipient_lines: to.lines.join('\n'), recipient_postcode: to.postcode, recipient_city: to.city } : {}),
  });

  /** Clicks a button that leads to a new page: its status. */
  async function click(page: Page, selector: string): Promise<number> {
    const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
    return response!.status();
  }

  /** Asks for the review and waits for its preview, posted into its frame on load: the preview's answer. */
  async function review(page: Page): Promise<{ status: number; preview?: HTTPResponse }> {
    const previewed = page.waitForResponse((r) => r.url().endsWith('/envois/nouveau/apercu'), { timeout: 60_000 }).catch(() => undefined);
    const status = await click(page, '#review');
    return { status, preview: status === 200 ? await previewed : undefined };
  }

  const errorOf = (page: Page, field: string): Promise<string> =>
    page.$eval(`.field-error[data-field="${field}"]`, (e) => e.textContent!.replace(/\s+/g, ' ').trim());

  async function mailingsOf(accountId: string, test = true) {
    return stack().db('shipments').where({ account_id: accountId, test }).orderBy('created_at');
  }

  /** The review's form, as the browser posts it. */
  const reviewForm = (page: Page): Promise<[string, string][]> =>
    page.$$eval('#confirm-form input[type=hidden]', (inputs) => inputs.map((i): [string, string] => [i.getAttribute('name')!, i.getAttribute('value') ?? '']));

  /**
   * The preview the review page posted into its frame answered a framable PDF; the browser's PDF
   * viewer keeps its body, so the same form is posted again from here to read it.
   */
  async function expectPdfPreview(page: Page, preview: HTTPResponse | undefined): Promise<{ document: PDFDocument; text: string }> {
    expect(preview, 'the preview was posted into its frame').to.not.equal(undefined);
    expect(preview!.status()).to.equal(200);
    expect(preview!.headers()['content-type']).to.equal('application/pdf');
    expect(preview!.headers()['x-frame-options']).to.equal('SAMEORIGIN');
    const body = new URLSearchParams(await reviewForm(page)).toString();
    const again = await fetch(`${base}/envois/nouveau/apercu`, {
      method: 'POST',
      headers: { Cookie: await cookieOf(page), 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(again.status).to.equal(200);
    const bytes = new Uint8Array(await again.arrayBuffer());
    return { document: await PDFDocument.load(bytes), text: (await readPdf(bytes)).text };
  }

  it('a catalogue letter: picked from the menu, its missing fields shown, priced and previewed, then sent in test and listed', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/envois`);
      expect(await page.$eval('#send-letter', (a) => a.getAttribute('href'))).to.equal('/dashboard/envois/nouveau');
      expect(await page.$$eval('header nav a', (links) => links.map((a) => a.getAttribute('href')))).to.include('/dashboard/envois/nouveau');
      await page.goto(`${base}/envois/nouveau`);
      expect(await dashboard.heading(page)).to.equal('Envoyer une lettre');
      await fill(page, { lettre: 'resiliation-box-internet' });
      expect(await click(page, '#letter-picker button')).to.equal(200);
      await fill(page, { fournisseur: 'bouygues-telecom' });
      expect(await click(page, '#letter-picker button')).to.equal(200);
      // The recipient is the provider's: its fieldset may stay empty; the address fields are the sender's.
      expect(await page.$('[name=f_senderName]')).to.equal(null);
      const { subscriberId: _missing, senderName: _n, senderAddress: _a, ...someValues } = boxLetterValues;
      const fields = Object.fromEntries(Object.entries(someValues).map(([name, v]) => [`f_${name}`, v]));
      const sendAt = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
      await fill(page, { ...addresses(null), ...fields, mode: 'registered', send_at: sendAt });
      const missing = await review(page);
      expect(missing.status).to.equal(422);
      expect(await errorOf(page, 'f_subscriberId')).to.equal('Champ requis par cette lettre.');
      expect(await errorOf(page, 'letter')).to.include('subscriberId');
      // What was typed is kept.
      expect(await page.$eval('[name=f_installationAddress]', (t) => (t as unknown as { value: string }).value)).to.equal(boxLetterValues.installationAddress);

      await fill(page, { f_subscriberId: boxLetterValues.subscriberId });
      const { status, preview } = await review(page);
      expect(status).to.equal(200);
      expect(await dashboard.heading(page)).to.equal('Vérifier et envoyer');
      expect(await page.$eval('#price', (p) => Number(p.getAttribute('data-amount-cents')))).to.equal(priceOf('mailing.registered'));
      expect((await expectPdfPreview(page, preview)).text).to.include(boxLetterValues.subscriberId);
      expect(await mailingsOf(accountId)).to.have.length(0);

      expect(await click(page, '#confirm')).to.equal(200);
      expect(new URL(page.url()).pathname + new URL(page.url()).search).to.equal('/dashboard/envois?env=test');
      const [mailing] = await mailingsOf(accountId);
      expect(mailing).to.include({ mode: 'registered', test: true, amount_cents: 0 });
      expect(await page.$eval(`#mailings tr[data-mailing-id="${mailing.id}"]`, (row) => row.textContent)).to.include('Bouygues');
      expect(await page.$eval(`#mailings tr[data-mailing-id="${mailing.id}"] .send-at`, (note) => note.getAttribute('data-send-at'))).to.equal(sendAt);
    });
  });

  it('a free-form letter: sent once however many times its confirmation is posted at once', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/envois/nouveau?type=libre`);
      // The shape first, field by field: an empty text, a missing postcode.
      await fill(page, { title: freeLetter.title, ...addresses({ ...recipient, postcode: '' }) });
      expect((await review(page)).status).to.equal(400);
      expect(await errorOf(page, 'body')).to.equal('Ce champ est obligatoire.');
      expect(await errorOf(page, 'recipient')).to.match(/^Adresse incomplète/);
      // An address the national base does not confirm: refused next to the recipient, with its suggestions.
      await fill(page, { title: freeLetter.title, body: freeLetter.body, ...addresses({ ...recipient, postcode: '69002' }), reference: 'DASH-FREE' });
      expect((await review(page)).status).to.equal(422);
      expect(await errorOf(page, 'recipient')).to.include('La Base Adresse Nationale ne confirme pas l’adresse du destinataire');
      expect(await page.$$eval('.field-error[data-field=recipient] .suggestions li .suggestion', (items) => items.map((li) => li.textContent))).to.include(
        '1 Place de la Comédie, 69001 LYON',
      );
      // "Utiliser cette adresse": the suggestion replaces the recipient's address and the review follows.
      const previewed = page.waitForResponse((r) => r.url().endsWith('/envois/nouveau/apercu'), { timeout: 60_000 });
      const status = await click(page, '.field-error[data-field=recipient] .suggestions li button');
      const preview = await previewed;
      expect(await page.$eval('#review-summary', (d) => d.textContent)).to.include('69001 LYON');
      expect(status).to.equal(200);
      expect(await page.$eval('#price', (p) => Number(p.getAttribute('data-amount-cents')))).to.equal(priceOf('mailing.simple'));
      expect((await expectPdfPreview(page, preview)).text).to.include('Je souhaite un rendez-vous.');

      // The review's form, posted 8 times at once from outside the browser (a double click, a reload, a retry).
      const fields = await page.$$eval('#confirm-form input[type=hidden]', (inputs) =>
        inputs.map((i): [string, string] => [i.getAttribute('name')!, i.getAttribute('value') ?? '']),
      );
      const body = new URLSearchParams([...fields, ['step', 'confirm']]).toString();
      const headers = { Cookie: await cookieOf(page), 'Content-Type': 'application/x-www-form-urlencoded' };
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => fetch(`${base}/envois/nouveau`, { method: 'POST', headers, body, redirect: 'manual' }).then((r) => r.status)),
      );
      expect(
        answers.filter((s) => s !== 302 && s !== 409),
        String(answers),
      ).to.deep.equal([]);
      expect(answers).to.include(302);
      // And once more by the browser, later: the same mailing, not another.
      const again = await click(page, '#confirm');
      expect(again, await page.$eval('main', (m) => m.textContent)).to.equal(200);
      const mailings = await mailingsOf(accountId);
      expect(mailings).to.have.length(1);
      expect(mailings[0]).to.include({ reference: 'DASH-FREE', title: freeLetter.title, mode: 'simple' });
      expect(await page.$(`#mailings tr[data-mailing-id="${mailings[0].id}"]`)).to.not.equal(null);

      // A changed form under the same key is not sent again.
      const changed = new URLSearchParams([...fields.filter(([n]) => n !== 'reference'), ['reference', 'DASH-OTHER'], ['step', 'confirm']]).toString();
      const answer = await fetch(`${base}/envois/nouveau`, { method: 'POST', headers, body: changed, redirect: 'manual' });
      expect(answer.status).to.equal(409);
      expect(await mailingsOf(accountId)).to.have.length(1);
    });
  });

  it('an own PDF: uploaded, its refusal shown next to it, then priced by its sheets, page 1 previewed, sent in test and listed', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/envois/nouveau?type=pdf`);
      const upload = async (name: string, pdf: Uint8Array): Promise<void> => {
        const path = join(files, name);
        writeFileSync(path, pdf);
        await page.$eval('#pdf', (input) => ((input as unknown as { value: string }).value = ''));
        // An input of type file (puppeteer types it with the DOM's HTMLInputElement, outside this project's lib).
        const input = (await page.$('#pdf_file')) as unknown as { uploadFile(...paths: string[]): Promise<void> };
        await input.uploadFile(path);
        await page.waitForFunction('document.getElementById("pdf").value.length > 0');
      };
      await fill(page, addresses());
      expect((await review(page)).status).to.equal(400);
      expect(await errorOf(page, 'pdf')).to.equal('Choisissez un fichier PDF.');
      await upload('script.pdf', await javascriptPdf());
      // An address the national base does not confirm, posted as given (lenient): its warning is on the mailings page.
      await fill(page, { ...addresses({ ...recipient, lines: ['7 rue Imaginaire'] }), address_check: 'lenient' });
      const refused = await review(page);
      expect(refused.status).to.equal(422);
      expect(await errorOf(page, 'pdf')).to.match(/^PDF refusé : le PDF contient du contenu actif/);
      expect(await mailingsOf(accountId)).to.have.length(0);

      await upload('lettre.pdf', await textPdf({ pages: 3 }));
      await fill(page, { pdf_title: 'Mon PDF', mode: 'simple' });
      await page.click('[name=duplex]');
      const { status, preview } = await review(page);
      expect(status).to.equal(200);
      // 3 pages in duplex: 2 sheets, plus the address sheet.
      expect(await page.$eval('#price', (p) => p.textContent)).to.include('3 feuille(s)');
      const shown = await expectPdfPreview(page, preview);
      expect(shown.document.getPageCount()).to.equal(1);
      expect(shown.text).to.include('Page 1 du document client');
      expect(await click(page, '#confirm')).to.equal(200);
      const [mailing] = await mailingsOf(accountId);
      expect(mailing).to.include({ title: 'Mon PDF', test: true });
      expect(await page.$eval(`#mailings tr[data-mailing-id="${mailing.id}"] .own-pdf .sheets`, (s) => s.textContent)).to.equal('3');
      expect(await page.$eval(`#mailings tr[data-mailing-id="${mailing.id}"] .warnings li`, (li) => li.getAttribute('data-warning'))).to.equal(
        'address_unverified',
      );
    });
  });

  it('previews are budgeted per account, however many are asked at once', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/envois/nouveau?type=pdf`);
      const token = await page.$eval('[name=_csrf]', (i) => i.getAttribute('value')!);
      // 3 previews left in this window.
      await stack()
        .db('developer_throttle')
        .insert({ subject: `preview:account:${accountId}`, used: PREVIEWS_PER_ACCOUNT - 3, window_ends_at: new Date(Date.now() + 600_000) });
      const pdf = Buffer.from(await textPdf()).toString('base64');
      const body = new URLSearchParams({ _csrf: token, type: 'pdf', pdf, mode: 'simple', env: 'test', ...addresses() }).toString();
      const headers = { Cookie: await cookieOf(page), 'Content-Type': 'application/x-www-form-urlencoded' };
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () => fetch(`${base}/envois/nouveau/apercu`, { method: 'POST', headers, body }).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 200)).to.have.length(3);
      expect(statuses.filter((s) => s === 429)).to.have.length(5);
    });
  });

  it('only the roles that may create mailings: a billing member is refused the page and its forms', async () => {
    await dashboard.withPage(async (page) => {
      const { email } = await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/envois/nouveau?type=libre`);
      const token = await page.$eval('[name=_csrf]', (i) => i.getAttribute('value')!);
      await stack().db('developer_users').where({ email }).update({ role: 'billing' });
      expect((await page.goto(`${base}/envois/nouveau`))!.status()).to.equal(403);
      expect(await page.$$eval('header nav a', (links) => links.map((a) => a.getAttribute('href')))).to.not.include('/dashboard/envois/nouveau');
      const body = new URLSearchParams({ _csrf: token, type: 'libre', step: 'confirm', title: 't', body: 'b', ...addresses() }).toString();
      const headers = { Cookie: await cookieOf(page), 'Content-Type': 'application/x-www-form-urlencoded' };
      expect((await fetch(`${base}/envois/nouveau`, { method: 'POST', headers, body, redirect: 'manual' })).status).to.equal(403);
      expect((await fetch(`${base}/envois/nouveau/apercu`, { method: 'POST', headers, body, redirect: 'manual' })).status).to.equal(403);
      // Without a signed-in session the letter form is read with the 16 KiB of every other form.
      const large = new URLSearchParams({ _csrf: token, type: 'pdf', pdf: 'A'.repeat(100_000) }).toString();
      const anonymous = { 'Content-Type': 'application/x-www-form-urlencoded' };
      expect((await fetch(`${base}/envois/nouveau`, { method: 'POST', headers: anonymous, body: large, redirect: 'manual' })).status).to.equal(413);
    });
  });

  it('live: refused before production is open; once open, a short balance is a clear 402 and nothing is sent; topped up, the balance is debited', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/envois/nouveau?type=libre`);
      await fill(page, { title: freeLetter.title, body: freeLetter.body, ...addresses() });
      await page.click('input[name=env][value=live]');
      const closed = await review(page);
      expect(closed.status).to.equal(403);
      expect(await errorOf(page, 'env')).to.include('La production n’est pas encore ouverte pour ce compte');
      // The form kept the choice: it says live again.
      expect(await page.$eval('input[name=env][value=live]', (r) => (r as unknown as { checked: boolean }).checked)).to.equal(true);

      await stack().db('accounts').where({ id: accountId }).update({ live_enabled: true });
      expect((await review(page)).status).to.equal(200);
      expect(await page.$eval('#review-summary [data-env]', (d) => d.getAttribute('data-env'))).to.equal('live');
      expect(await dashboard.alert(page)).to.match(/^Solde insuffisant pour cet envoi : le solde du compte est de 0,00/);
      expect(await click(page, '#confirm')).to.equal(402);
      expect(await dashboard.alert(page)).to.match(/^Solde insuffisant : cet envoi coûte .* et le solde du compte est de 0,00/);
      expect(await mailingsOf(accountId, false)).to.have.length(0);

      await topUp(stack().db, accountId, 5000, 'test setup');
      expect((await review(page)).status).to.equal(200);
      expect(await click(page, '#confirm')).to.equal(200);
      expect(new URL(page.url()).search).to.equal('?env=live');
      const [mailing] = await mailingsOf(accountId, false);
      expect(mailing).to.include({ amount_cents: priceOf('mailing.simple') });
      expect(await balanceOf(accountId)).to.equal(5000 - priceOf('mailing.simple'));
    });
  });
  it('the electronic channel: refused for a simple letter, a consumer without consent, no email, next to their fields; then sent in test with the paper fallback, priced with its hold, and listed as such', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/envois/nouveau?type=libre`);
      expect(await page.$('#channel input[name=channel][value=paper]:checked')).to.not.equal(null);
      await fill(page, { title: freeLetter.title, body: freeLetter.body, ...addresses(), mode: 'simple', recipient_email: 'destinataire@example.fr' });
      await page.click('input[name=channel][value=electronic]');
      expect((await review(page)).status).to.equal(422);
      expect(await errorOf(page, 'channel')).to.include('mode simple is posted only');
      // The choices were kept.
      expect(await page.$('input[name=channel][value=electronic]:checked')).to.not.equal(null);

      await fill(page, { mode: 'ar' });
      await page.click('input[name=recipient_kind][value=consumer]');
      expect((await review(page)).status).to.equal(422);
      expect(await errorOf(page, 'consent')).to.include('CPCE L100');

      await fill(page, { recipient_email: '', consent_date: '2026-01-10', consent_means: 'article 12 du bail' });
      expect((await review(page)).status).to.equal(422);
      expect(await errorOf(page, 'recipient_email')).to.include('recipientEmail is required');

      await fill(page, { recipient_email: 'destinataire@example.fr', reference: 'DASH-LRE' });
      await page.click('input[name=fallback]');
      const { status } = await review(page);
      expect(status, await page.$eval('main', (m) => m.textContent)).to.equal(200);
      expect(await page.$eval('#review-channel', (d) => d.textContent)).to.equal(
        'lettre recommandée électronique, puis par courrier si elle n’est pas acceptée',
      );
      // The price said before the confirmation is the debit's: the electronic letter and the held paper price.
      const priced = await page.$eval('#price', (p) => Number(p.getAttribute('data-amount-cents')));
      expect(priced).to.equal(priceOf('mailing.electronic') + priceOf('mailing.ar'));
      expect(await click(page, '#confirm')).to.equal(200);
      const [mailing] = await mailingsOf(accountId);
      expect(mailing).to.include({ reference: 'DASH-LRE', mode: 'ar', channel: 'electronic', recipient_email: 'destinataire@example.fr' });
      expect(mailing.electronic).to.deep.include({
        recipientKind: 'consumer',
        fallback: 'paper',
        consent: { date: '2026-01-10', means: 'article 12 du bail' },
      });
      // A test mailing is free: nothing debited, nothing held.
      expect(mailing).to.include({ amount_cents: 0, fallback_hold_cents: 0 });
      const note = await page.$eval(`#mailings tr[data-mailing-id="${mailing.id}"] .channel`, (e) => e.textContent!.replace(/\s+/g, ' ').trim());
      expect(note).to.equal('Lettre recommandée électronique · par courrier si elle n’est pas acceptée');
    });
  });
});
