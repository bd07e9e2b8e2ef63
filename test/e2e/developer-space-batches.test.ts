import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';
import { startedMailingWorkflow } from '../support/api.js';
import { advanceUpdate } from '../../workflows/contract.js';
import { expectAccessible, expectNoHorizontalOverflow } from '../support/axe.js';
import { call, createKey } from '../support/api.js';
import { batchRowsFromCsv } from '../../domain/batches/csv.js';

const header = 'name;line1;postalCode;city;reference;prenom';
const line = (i: number, postcode = recipient.postcode) => `Personne ${i};${recipient.lines[0]};${postcode};${recipient.city};LOT-${i};Prénom ${i}`;

/** Mail merge from the developer space (issue 29): a CSV file, the dry run's report row by row, then the batch. */
describe('developer space: a batch from a CSV file (browser)', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  before(async () => {
    dashboard = await startDashboard();
  });
  after(() => dashboard?.close());

  /** The check's report, once the check (run after the form's answer, followed by the page) has ended; axe-core on it. */
  const reportShown = async (page: Page): Promise<void> => {
    await page.waitForSelector('#batch-report', { timeout: 240_000 });
    await expectAccessible(page);
  };

  const rows = (page: Page) =>
    page.$$eval('#batch-report tbody tr', (trs) => trs.map((tr) => ({ ok: tr.getAttribute('data-ok'), text: tr.textContent!.replace(/\s+/g, ' ').trim() })));

  it('uploads the file, shows each row checked before anything is sent, then creates the batch and lists its mailings', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${dashboard.base}/envois`);
      await Promise.all([page.waitForNavigation(), page.click('#batch-link')]);
      expect(await dashboard.heading(page)).to.equal('Envoi en nombre');

      const folder = mkdtempSync(join(tmpdir(), 'batch-csv-'));
      const file = join(folder, 'destinataires.csv');
      writeFileSync(file, [header, line(1), line(2, '99999'), line(3)].join('\n'));
      await ((await page.$('#csv-file')) as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
      await page.waitForFunction("document.getElementById('csv').value.includes('Personne 3')", { timeout: 5000 });
      const letter = { senderName: sender.name, senderLine1: sender.lines[0]!, senderPostalCode: sender.postcode, senderCity: sender.city };
      const fill = { ...letter, title: 'Bonjour {{prenom}}', body: 'Cher {{prenom}},\n\nVoici votre courrier.' };
      expect(await dashboard.submit(page, fill, '#check-batch')).to.equal(200);
      await reportShown(page);
      const checked = await rows(page);
      expect(checked.map((r) => r.ok)).to.deep.equal(['true', 'false', 'true']);
      expect(checked[1]!.text).to.include('address_invalid').and.include('LOT-2');
      expect(await page.$('#confirm-batch')).to.equal(null);
      expect(await stack().db('shipments').where({ account_id: accountId })).to.have.length(0);

      // The corrected file: every row ready, the total shown, then sent.
      const csv = [header, line(1), line(2), line(3)].join('\n');
      expect(await dashboard.submit(page, { ...fill, csv }, '#check-batch')).to.equal(200);
      await reportShown(page);
      expect((await rows(page)).map((r) => r.ok)).to.deep.equal(['true', 'true', 'true']);
      expect(await page.$eval('#batch-total', (p) => p.textContent)).to.include('3 lignes, 0 refusées');
      const confirmation = await page.$$eval('form:has(#confirm-batch) input', (inputs) =>
        new URLSearchParams(
          inputs.map((input): [string, string] => [(input as unknown as { name: string }).name, (input as unknown as { value: string }).value]),
        ).toString(),
      );
      const [response] = await Promise.all([page.waitForNavigation(), page.click('#confirm-batch')]);
      expect(response!.status()).to.equal(200);
      const batch = await stack().db('mailing_batches').where({ account_id: accountId }).first();
      expect(batch).to.include({ test: true, row_count: 3 });
      expect(new URL(page.url()).searchParams.get('batch')).to.equal(batch.id);
      const listed = await page.$$eval('#mailings tbody tr', (trs) => trs.map((tr) => tr.textContent!.replace(/\s+/g, ' ')));
      expect(listed).to.have.length(3);
      expect(listed.join(' ')).to.include('Bonjour Prénom 1').and.include('LOT-3');
      expect(await page.$eval('#batch-filter', (p) => p.textContent)).to.include(batch.id);
      // Its progress above the list: none of the 3 at its end yet. The page follows the batch
      // without a reload (a mark left in the page survives) until every letter is posted.
      expect(await page.$eval('#batch-progress-count', (p) => p.textContent)).to.equal('0 sur 3');
      expect(await page.$eval('#batch-progress', (s) => s.getAttribute('data-batch-progress'))).to.equal('running');
      await page.evaluate('window.__notReloaded = true');
      const ids = (await stack().db('shipments').where({ batch_id: batch.id }).orderBy('created_at').select('id')).map((r) => r.id as string);
      for (const id of ids) await (await startedMailingWorkflow(id)).executeUpdate(advanceUpdate, { args: [{ step: 2 }] });
      await page.waitForFunction("document.getElementById('batch-progress-count').textContent === '3 sur 3'", { timeout: 20_000 });
      expect(await page.evaluate('window.__notReloaded')).to.equal(true);
      expect(await page.$eval('#batch-progress', (s) => s.getAttribute('data-batch-progress'))).to.equal('done');
      expect(await page.$eval('#batch-progress-bar', (bar) => bar.getAttribute('value'))).to.equal('3');
      expect(await page.$eval('[data-count-status="posted"]', (li) => li.textContent!.replace(/\s+/g, ' ').trim())).to.equal("Remise à l'opérateur postal 3");
      const badges = await page.$$eval('#mailings tbody [data-badge-status]', (spans) => spans.map((b) => b.getAttribute('data-badge-status')));
      expect(badges).to.deep.equal(['posted', 'posted', 'posted']);
      // The same confirmation sent again (a second click, a reload): the same batch, nothing more.
      // The page's CSP lets only forms post: the same form, rebuilt on this page and submitted.
      const resubmit = `(() => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = '/dashboard/envois/lots/envoyer';
        for (const [name, value] of new URLSearchParams(${JSON.stringify(confirmation)})) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = name;
          input.value = value;
          form.appendChild(input);
        }
        document.body.appendChild(form);
        form.submit();
      })()`;
      await Promise.all([page.waitForNavigation(), page.evaluate(resubmit)]);
      const again = page.url();
      expect(new URL(again).searchParams.get('batch')).to.equal(batch.id);
      expect(await stack().db('mailing_batches').where({ account_id: accountId })).to.have.length(1);
    });
  });

  it('checks a file of 400 rows (over the 16 KiB of the other forms) row by row', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      await page.goto(`${dashboard.base}/envois/lots`);
      const csv = [header, ...Array.from({ length: 400 }, (_, i) => line(i + 1))].join('\n');
      expect(Buffer.byteLength(csv)).to.be.above(16 * 1024);
      expect(await dashboard.submit(page, bigFill(csv), '#check-batch')).to.equal(200);
      await reportShown(page);
      const checked = await rows(page);
      expect(checked).to.have.length(400);
      expect(checked.every((r) => r.ok === 'true')).to.equal(true);
    });
  });
  const bigFill = (csv: string) => ({
    senderName: sender.name,
    senderLine1: sender.lines[0]!,
    senderPostalCode: sender.postcode,
    senderCity: sender.city,
    title: 'Bonjour {{prenom}}',
    body: 'Cher {{prenom}}.',
    csv,
  });
  /** 5 000 rows (the most a batch holds), one in 500 with a postcode that does not exist. */
  const bigCsv = [header, ...Array.from({ length: 5000 }, (_, i) => line(i + 1, (i + 1) % 500 === 0 ? '99999' : recipient.postcode))].join('\n');
  const refusedLines = Array.from({ length: 10 }, (_, i) => String((i + 1) * 500));

  it('checks 5 000 rows as a job its page follows: the progress first, a reload loses nothing, then the same report as the API', async function () {
    this.timeout(600_000);
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      await page.goto(`${dashboard.base}/envois/lots`);
      // The form's answer comes before the check's end: its page, the progress bar short of the total (axe-core ran on it in submit).
      expect(await dashboard.submit(page, bigFill(bigCsv), '#check-batch')).to.equal(200);
      const checkPage = page.url();
      expect(new URL(checkPage).pathname).to.match(/^\/dashboard\/envois\/lots\/verifications\/[0-9a-f-]{36}$/);
      expect(await page.$eval('#batch-check', (s) => s.getAttribute('data-batch-check'))).to.equal('running');
      const first = Number(await page.$eval('#batch-check-bar', (bar) => bar.getAttribute('value')));
      expect(await page.$eval('#batch-check-bar', (bar) => bar.getAttribute('max'))).to.equal('5000');
      expect(first).to.be.below(5000);
      expect(await page.$eval('#batch-check-count', (s) => s.textContent)).to.match(/^[\d\u202f]+ \/ 5\u202f000 lignes vérifiées$/);
      expect(await page.$('#batch-report')).to.equal(null);
      // At 390 px, nothing wider than the screen.
      const viewport = page.viewport();
      await page.setViewport({ width: 390, height: 844 });
      await expectNoHorizontalOverflow(page);
      if (viewport) await page.setViewport(viewport);

      // Reloaded: the same check, which went on meanwhile.
      await page.reload();
      expect(page.url()).to.equal(checkPage);
      // Each value the page shows from now on, as the page's script replaces its progress in place (recorded through the DevTools protocol).
      await page.evaluate(`window.__notReloaded = true;
        window.__seen = [];
        new MutationObserver(() => {
          const bar = document.getElementById('batch-check-bar');
          if (bar) window.__seen.push(Number(bar.getAttribute('value')));
        }).observe(document.getElementById('batch-check') || document.body, { childList: true, subtree: true, attributes: true });`);
      await reportShown(page);
      const seen = (await page.evaluate('window.__seen')) as number[];
      expect(seen).to.deep.equal([...seen].sort((a, b) => a - b));
      expect(await page.$eval('#batch-check', (s) => s.getAttribute('data-batch-check'))).to.equal('done');

      // The full result: every row, the refused ones with the API's reasons, and nothing sent.
      const checked = await rows(page);
      expect(checked).to.have.length(5000);
      const refused = await page.$$eval('#batch-report tbody tr[data-ok=false]', (trs) => trs.map((tr) => tr.getAttribute('data-row')));
      expect(refused).to.deep.equal(refusedLines);
      expect(await page.$eval('#batch-total', (p) => p.textContent!.replace(/\s+/g, ' ').trim())).to.match(/^5 000 lignes, 10 refusées\./);
      expect(await page.$('#confirm-batch')).to.equal(null);
      expect(await stack().db('shipments').where({ account_id: accountId })).to.have.length(0);

      // The API's dry run of the same rows answers the same errors, row by row.
      const key = await createKey(accountId, 'test', ['mailings:write']);
      const dryRun = await call('POST', '/v1/mailing-batches', {
        key,
        headers: { 'idempotency-key': `dry-${accountId}` },
        body: {
          mode: 'simple',
          letter: { title: 'Bonjour {{prenom}}', body: 'Cher {{prenom}}.' },
          sender: { name: sender.name, lines: [sender.lines[0]], postcode: sender.postcode, city: sender.city },
          rows: batchRowsFromCsv(bigCsv),
          dryRun: true,
        },
      });
      expect(dryRun.status).to.equal(200);
      const apiRefused = (dryRun.body.rows as { index: number; ok: boolean; error: { code: string } | null }[]).filter((r) => !r.ok);
      expect(apiRefused.map((r) => String(r.index + 1))).to.deep.equal(refused);
      const pageCodes = await page.$$eval('#batch-report tbody tr[data-ok=false] strong', (strongs) => strongs.map((s) => s.textContent));
      expect(pageCodes).to.deep.equal(apiRefused.map((r) => r.error!.code));

      // Loaded again once ended: the same result.
      await page.reload();
      expect(await rows(page)).to.have.length(5000);
    });
  });

  it('without JavaScript, the page of a check reloads itself until the full result', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      await page.goto(`${dashboard.base}/envois/lots`);
      const csv = [header, ...Array.from({ length: 1500 }, (_, i) => line(i + 1))].join('\n');
      for (const [name, value] of Object.entries(bigFill(csv)))
        await page.$eval(`[name=${name}]`, (input, v) => ((input as unknown as { value: string }).value = v), value);
      // From the click on, no script runs in the page: each page is read from its answer, as the browser loads it.
      await page.setJavaScriptEnabled(false);
      let [response] = await Promise.all([page.waitForNavigation(), page.click('#check-batch')]);
      const checkPage = page.url();
      expect(new URL(checkPage).pathname).to.match(/^\/dashboard\/envois\/lots\/verifications\//);
      const pages = [await response!.text()];
      expect(pages[0]).to.include('data-batch-check="running"').and.include('<noscript><meta http-equiv="refresh"');
      // The browser reloads the page by itself (the meta refresh of <noscript>) until the result.
      while (!pages[pages.length - 1]!.includes('id="batch-report"')) {
        response = await page.waitForNavigation({ timeout: 60_000 });
        expect(page.url()).to.equal(checkPage);
        pages.push(await response!.text());
      }
      const result = pages[pages.length - 1]!;
      expect(pages.length).to.be.above(1);
      expect(result).to.not.include('http-equiv="refresh"');
      expect(result.match(/<tr data-row="/g)).to.have.length(1500);
      expect(result).to.match(/1\u202f500 lignes, 0 refusées/);
      expect(result).to.include('id="confirm-batch"');
      // The same page with script, judged by axe-core.
      await page.setJavaScriptEnabled(true);
      await page.reload();
      await expectAccessible(page);
      expect(await rows(page)).to.have.length(1500);
    });
  });

  it('a check whose process stopped is run again by the next read of its page', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const csv = [header, line(1), line(2, '99999'), line(3)].join('\n');
      const form = { ...bigFill(csv), env: 'test', mode: 'simple', channel: 'paper', recipientKind: 'professional', fallback: 'none' };
      // As a process leaves it when it stops mid-check: running, a few rows counted, its lease over.
      const id = randomUUID();
      await stack()
        .db('batch_checks')
        .insert({
          id,
          account_id: accountId,
          mode: 'test',
          form: JSON.stringify(form),
          row_count: 3,
          checked_count: 2,
          lease_until: new Date(Date.now() - 60_000),
        });
      await page.goto(`${dashboard.base}/envois/lots/verifications/${id}`);
      await reportShown(page);
      expect((await rows(page)).map((r) => r.ok)).to.deep.equal(['true', 'false', 'true']);
      expect(await stack().db('batch_checks').where({ id }).first('state')).to.deep.equal({ state: 'done' });
      // Another account's check is not found.
      await dashboard.withPage(async (other) => {
        await dashboard.signedInDeveloper(other);
        expect((await other.goto(`${dashboard.base}/envois/lots/verifications/${id}`))!.status()).to.equal(404);
      });
    });
  });
});
