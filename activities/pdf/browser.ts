import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { logger } from '../../lib/logger.js';
import { chooseBrowser, type BrowserChoice } from './chromium.js';
import { fontconfigFile } from './fonts.js';

/**
 * Flags for a headless browser that only prints static documents. `--no-sandbox`: the worker may
 * run as root (containers), where Chromium's sandbox refuses to start.
 */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-dev-shm-usage',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--font-render-hinting=none',
];

export interface BrowserPoolOptions {
  /** Pages printing at once; callers beyond that wait their turn. */
  pages?: number;
  /** PUPPETEER_EXECUTABLE_PATH; unset: a system Chromium, else the packaged one. */
  executablePath?: string;
  /** For tests: choose the browser another way (e.g. always the packaged one). */
  choose?: () => Promise<BrowserChoice>;
}

/**
 * One headless browser shared by every rendering, with at most `pages` pages at once. A crashed or
 * closed browser is replaced on the next rendering.
 *
 * The browser talks to us over a pipe (`pipe: true`) rather than a WebSocket: when this process dies,
 * even by SIGKILL, the pipe closes and Chromium exits with it, so no browser outlives its worker.
 */
export class BrowserPool {
  private browser: Promise<Browser> | undefined;
  private idle: Page[] = [];
  private active = 0;
  private queue: (() => void)[] = [];
  private closing = false;
  private readonly size: number;
  launches = 0;
  /** The browser in use, once one has started. */
  choice: BrowserChoice | undefined;

  constructor(private readonly options: BrowserPoolOptions = {}) {
    this.size = options.pages ?? 4;
  }

  private chosen: Promise<BrowserChoice> | undefined;

  /**
   * Finds the browser (unpacking the packaged one if it comes to that) without starting it, so that
   * a start script can say early which browser prints, or why none can.
   */
  prepare(): Promise<BrowserChoice> {
    this.chosen ??= (this.options.choose ?? (() => chooseBrowser({ executablePath: this.options.executablePath })))();
    this.chosen.catch(() => (this.chosen = undefined));
    return this.chosen;
  }

  private async launch(): Promise<Browser> {
    const choice = await this.prepare();
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        executablePath: choice.executablePath,
        headless: 'shell',
        pipe: true,
        args: ARGS,
        env: { ...process.env, FONTCONFIG_FILE: fontconfigFile() },
      });
    } catch (error) {
      const reason = String((error as Error).message).split('\n').find((line) => line.trim()) ?? String(error);
      throw new Error(
        `PDF browser (${choice.source}: ${choice.executablePath}) failed to start: ${reason}. Set PUPPETEER_EXECUTABLE_PATH to a working Chromium, or install the system libraries it names.`,
      );
    }
    this.choice = choice;
    this.launches += 1;
    logger.info({ browser: choice.source, executablePath: choice.executablePath, pid: browser.process()?.pid }, 'PDF browser started');
    browser.once('disconnected', () => {
      if (this.closing) return;
      logger.warn('PDF browser disconnected; a new one starts with the next rendering');
      this.browser = undefined;
      this.idle = [];
    });
    return browser;
  }

  private getBrowser(): Promise<Browser> {
    this.browser ??= this.launch().catch((error: unknown) => {
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
