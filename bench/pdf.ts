import type { Page } from 'puppeteer-core';
import { catalogue } from '../domain/catalogue/catalogue.js';
import { renderLetter } from '../domain/letters/render.js';
import { BrowserPool } from '../activities/pdf/browser.js';
import { pdfActivities } from '../activities/pdf.js';
import { summary } from './stats.js';
import { boxLetterValues } from '../test/support/fixtures.js';

const SMALL_PAGE = '<!doctype html><html><body><p>Bonjour</p></body></html>';

/** Runs `print` `count` times over `concurrency` lanes; latency of each, and the rate of all. */
async function measure(count: number, concurrency: number, print: (lane: number) => Promise<unknown>): Promise<{ samples: number[]; perSecond: number }> {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      while (next < count) {
        next += 1;
        const t = performance.now();
        await print(lane);
        samples.push(performance.now() - t);
      }
    }),
  );
  return { samples, perSecond: count / ((performance.now() - started) / 1000) };
}

/**
 * A one-page catalogue letter through the worker's activity (warm browser, `concurrency` pages),
 * beside a bare puppeteer `setContent` + `pdf` of a small A4 page in the same browser, with the same
 * number of pages: the ratio is the overhead of our path (target ≤ 2×). Rounds alternate so that
 * both see the same machine.
 */
export async function benchPdf(letters = 300, concurrency = 4, rounds = 3): Promise<{ lines: string[]; perSecond: number; p50: number; overhead: number }> {
  const letter = catalogue().letters.get('resiliation-box-internet')!;
  const { document } = renderLetter(letter, letter.providers[0], boxLetterValues);
  const pool = new BrowserPool({ pages: concurrency });
  const { renderLetterPdf } = pdfActivities(pool);
  try {
    for (let i = 0; i < concurrency * 3; i++) await renderLetterPdf(document); // warm browser and pages
    const browser = (await pool.currentBrowser())!;
    const barePages: Page[] = [];
    for (let i = 0; i < concurrency; i++) barePages.push(await browser.newPage());
    const bare = async (lane: number): Promise<void> => {
      await barePages[lane]!.setContent(SMALL_PAGE);
      await barePages[lane]!.pdf({ format: 'A4' });
    };
    for (let i = 0; i < concurrency * 3; i++) await bare(i % concurrency);

    const ours = { samples: [] as number[], rates: [] as number[] };
    const base = { samples: [] as number[], rates: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      const b = await measure(letters, concurrency, bare);
      base.samples.push(...b.samples);
      base.rates.push(b.perSecond);
      const o = await measure(letters, concurrency, () => renderLetterPdf(document));
      ours.samples.push(...o.samples);
      ours.rates.push(o.perSecond);
    }
    const rate = (rates: number[]): number => [...rates].sort((x, y) => x - y)[Math.floor(rates.length / 2)]!;
    const o = summary(ours.samples);
    const b = summary(base.samples);
    const lines = [
      `PDF (${pool.choice?.source} browser ${pool.choice?.executablePath}, warm, ${concurrency} pages, ${rounds} rounds of ${letters}, median round):`,
      `  one-page catalogue letter (our activity): ${rate(ours.rates).toFixed(0)} letters/s, p50 ${o.p50.toFixed(1)} ms, p99 ${o.p99.toFixed(1)} ms   (targets: p50 ≤ 30 ms, ≥ 80 letters/s)`,
      `  bare setContent + pdf, small A4 page:     ${rate(base.rates).toFixed(0)} pages/s,   p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms`,
      `  overhead of our path: p50 ${(o.p50 / b.p50).toFixed(2)}× (target ≤ 2×), throughput ${(rate(ours.rates) / rate(base.rates)).toFixed(2)}× of bare`,
    ];
    return { lines, perSecond: rate(ours.rates), p50: o.p50, overhead: o.p50 / b.p50 };
  } finally {
    await pool.close();
  }
}
