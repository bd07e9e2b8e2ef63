import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { logger } from '../../lib/logger.js';

/** Debian's chromium where it exists (machines without internet); otherwise puppeteer's own browser. */
export function browserExecutable(): string | undefined {
  if (process.env.PUPPETEER_EXECUTABLE_PATH) return process.env.PUPPETEER_EXECUTABLE_PATH;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage', '--disable-sync', '--no-first-run', '--font-render-hinting=none'];

/**
 * One headless browser shared by every rendering, with at most `size` pages at once (callers beyond
 * that wait their turn). A crashed or closed browser is replaced on the next rendering.
 */
export class BrowserPool {
  private browser: Promise<Browser> | undefined;
  private idle: Page[] = [];
  private active = 0;
  private queue: (() => void)[] = [];
  launches = 0;
  private closing = false;

  constructor(private readonly size = 4) {}

  private getBrowser(): Promise<Browser> {
    this.browser ??= (async () => {
      const browser = await puppeteer.launch({ executablePath: browserExecutable(), headless: true, args: ARGS });
      this.launches += 1;
      browser.once('disconnected', () => {
        if (this.closing) return;
        logger.warn('PDF browser disconnected; a new one starts with the next rendering');
        this.browser = undefined;
        this.idle = [];
      });
      return browser;
    })().catch((error) => {
      this.browser = undefined;
      throw error;
    });
    return this.browser;
  }

  private async acquire(): Promise<void> {
    if (this.active < this.size) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active -= 1;
  }

  private async newPage(): Promise<Page> {
    const page = await (await this.getBrowser()).newPage();
    // Letters are static documents: no script runs and nothing is fetched.
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', (request) => (request.url().startsWith('data:') ? request.continue() : request.abort()));
    return page;
  }

  async withPage<T>(work: (page: Page) => Promise<T>): Promise<T> {
    await this.acquire();
    let page: Page | undefined;
    try {
      page = this.idle.pop();
      if (!page || page.isClosed()) page = await this.newPage();
      const result = await work(page);
      this.idle.push(page);
      return result;
    } catch (error) {
      await page?.close().catch(() => undefined);
      throw error;
    } finally {
      this.release();
    }
  }

  /** For tests and supervision: the browser process, if one runs. */
  async currentBrowser(): Promise<Browser | undefined> {
    return this.browser;
  }

  async close(): Promise<void> {
    this.closing = true;
    const browser = this.browser;
    this.browser = undefined;
    this.idle = [];
    if (browser) await (await browser.catch(() => undefined))?.close().catch(() => undefined);
  }
}
