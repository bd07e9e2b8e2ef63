import { makeReportlabPdfs, OWN_PDF_FIXTURES } from './local/reportlab-pdfs.js';

/**
 * Makes again the own-PDF fixtures of other tools (test/fixtures/own-pdfs/): reportlab's, see
 * scripts/local/reportlab-pdfs.ts. `npm run --silent build && node dist/scripts/own-pdf-fixtures.js`.
 */
makeReportlabPdfs(OWN_PDF_FIXTURES, (line) => console.error(line));
console.log(`Made ${OWN_PDF_FIXTURES}/reportlab-*.pdf`);
