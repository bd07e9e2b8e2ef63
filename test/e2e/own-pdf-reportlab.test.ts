import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, createAccount, type TestAccount } from '../support/api.js';
import { recipient, sender } from '../support/fixtures.js';
import { base64 } from '../support/own-pdfs.js';
import { makeReportlabPdfs } from '../../scripts/local/reportlab-pdfs.js';

/**
 * Own PDFs made at test time by another tool than ours: reportlab (pinned in the tools venv), which
 * selects Helvetica at the top of every page. Through POST /v1/mailing-quotes, which runs every
 * check of POST /v1/mailings and charges nothing.
 */
describe('own PDFs made by reportlab (letter.pdf)', function () {
  this.timeout(120_000);
  let account: TestAccount;
  let folder: string;

  before(async function () {
    // The first run on a machine installs the pinned venv from PyPI.
    this.timeout(600_000);
    folder = mkdtempSync(join(tmpdir(), 'reportlab-'));
    makeReportlabPdfs(folder, (line) => process.stderr.write(line + '\n'));
    account = await createAccount({ balanceCents: 10_000 });
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  const quote = (file: string) =>
    call('POST', '/v1/mailing-quotes', {
      key: account.liveKey,
      body: { mode: 'simple', letter: { pdf: base64(readFileSync(join(folder, file))) }, sender, recipient },
    });

  it('accepts all text drawn in an embedded TrueType font, Helvetica only selected', async () => {
    const answer = await quote('reportlab-embedded.pdf');
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.body).to.include({ pages: 2, sheets: 3 });
  });

  it('refuses a line drawn in Helvetica, not embedded, naming the font and its page', async () => {
    const answer = await quote('reportlab-helvetica.pdf');
    expect(answer.status, answer.text).to.equal(422);
    expect(answer.body.error.code).to.equal('pdf_refused');
    expect(answer.body.error.details).to.deep.include({ field: 'letter.pdf', reason: 'font_not_embedded', fonts: [{ page: 2, font: 'Helvetica' }] });
  });
});
