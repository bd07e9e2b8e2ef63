import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../lib/paths.js';
import { pythonSdkTools } from './local/python-sdk-venv.js';

/**
 * Makes again the own-PDF fixtures of other tools (test/fixtures/own-pdfs/): reportlab's, with the
 * version pinned in sdk/python/requirements-tools.txt, embedding the Liberation Sans that PDF.js
 * ships. `npm run --silent build && node dist/scripts/own-pdf-fixtures.js`.
 */
const folder = join(projectRoot, 'test', 'fixtures', 'own-pdfs');
const font = createRequire(import.meta.url).resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf');
const { python } = pythonSdkTools((line) => console.error(line));
const made = spawnSync(python, [join(folder, 'reportlab_pdfs.py'), font, folder], { stdio: 'inherit' });
if (made.status !== 0) process.exit(made.status ?? 1);
console.log(`Made ${folder}/reportlab-*.pdf`);
