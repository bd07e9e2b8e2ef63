import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';
import { startedMailingWorkflow } from '../support/api.js';
import { advanceUpdate } from '../../workflows/contract.js';

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
      const checked = await rows(page);
      expect(checked.map((r) => r.ok)).to.deep.equal(['true', 'false', 'true']);
      expect(checked[1]!.text).to.include('address_invalid').and.include('LOT-2');
      expect(await page.$('#confirm-batch')).to.equal(null);
      expect(await stack().db('shipments').where({ account_id: accountId })).to.have.length(0);

      // The corrected file: every row ready, the total shown, then sent.
      const csv = [header, line(1), line(2), line(3)].join('\n');
      expect(await dashboard.submit(page, { ...fill, csv }, '#check-batch')).to.equal(200);
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
      const fill = {
        senderName: sender.name,
        senderLine1: sender.lines[0]!,
        senderPostalCode: sender.postcode,
        senderCity: sender.city,
        title: 'Bonjour {{prenom}}',
        body: 'Cher {{prenom}}.',
        csv,
      };
      expect(await dashboard.submit(page, fill, '#check-batch')).to.equal(200);
      const checked = await rows(page);
      expect(checked).to.have.length(400);
      expect(checked.every((r) => r.ok === 'true')).to.equal(true);
    });
  });
});
