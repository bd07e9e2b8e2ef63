import { catalogue } from '../api/catalogue/catalogue.js';
import { renderLetter } from '../api/letters/render.js';
import { BrowserPool } from '../activities/pdf/browser.js';
import { pdfActivities } from '../activities/pdf.js';
import { summary } from './stats.js';
import { boxLetterValues } from '../test/support/fixtures.js';

/** PDF throughput with a warm browser: the worker's activity, 4 pages at once. */
export async function benchPdf(letters = 60, concurrency = 4): Promise<string> {
  const letter = catalogue().letters.get('resiliation-box-internet')!;
  const { document } = renderLetter(letter, letter.providers[0], boxLetterValues);
  const pool = new BrowserPool({ pages: concurrency });
  const { renderLetterPdf } = pdfActivities(pool);
  try {
    for (let i = 0; i < concurrency * 2; i++) await renderLetterPdf(document); // warm browser and pages
    const samples: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < letters) {
          next += 1;
          const t = performance.now();
          await renderLetterPdf(document);
          samples.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const s = summary(samples);
    return `PDF letters (warm browser, ${concurrency} pages): ${(letters / seconds).toFixed(1)} letters/s, p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms`;
  } finally {
    await pool.close();
  }
}
