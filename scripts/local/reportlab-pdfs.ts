import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';
import { pythonSdkTools } from './python-sdk-venv.js';

/** Where the own-PDF fixtures of other tools are kept, with the script that makes them. */
export const OWN_PDF_FIXTURES = join(projectRoot, 'test', 'fixtures', 'own-pdfs');

/**
 * Makes reportlab's own-PDF letters into `folder` (reportlab-embedded.pdf, reportlab-helvetica.pdf)
 * with test/fixtures/own-pdfs/reportlab_pdfs.py, on the reportlab pinned in
 * sdk/python/requirements-tools.txt, embedding the Liberation Sans that PDF.js ships.
 */
export function makeReportlabPdfs(folder: string, log: (line: string) => void = () => {}): void {
  const font = createRequire(import.meta.url).resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf');
  const { python } = pythonSdkTools(log);
  const made = spawnSync(python, [join(OWN_PDF_FIXTURES, 'reportlab_pdfs.py'), font, folder], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (made.status !== 0)
    throw new Error(`reportlab_pdfs.py failed (${made.error?.message ?? `exit ${made.status}`}): ${(made.stderr ?? '').trim().slice(-500)}`);
}
