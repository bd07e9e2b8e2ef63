import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';
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

/** A page kept open between printings, with its protocol session and main frame. */
interface Tab {
  page: Page;
  session: CDPSession;
  frameId: string;
}

export interface PrintOptions {
  /** Printed in the bottom margin of every page (page numbers); none when unset. */
  footerTemplate?: string;
}

export interface BrowserPoolOptions {
  /** Pages printing at once; callers beyond that wait their turn. */
  pages?: number;
  /** PUPPETEER_EXECUTABLE_PATH; unset: a system Chromium, else the packaged one. */
  executablePath?: string;
  /** For tests: choose the browser another way (e.g. always the packaged one). */
  choose?: () => Promise<BrowserChoice>;
  /**
   * Set in a worker that does not print (WORKER_ROLES without `printing`): no browser ever starts
   * there, and a printing that reaches it anyway fails (retried elsewhere) with this reason.
   */
  disabled?: string;
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
  private idle: Tab[] = [];
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
    if (this.options.disabled) return Promise.reject(new Error(this.options.disabled));
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
        // A hung renderer fails the printing (the activity retries) instead of holding a slot.
        protocolTimeout: 20_000,
        // The worker's own shutdown closes the browser after draining (worker/worker.ts); puppeteer's
        // handlers would end the whole process at Ctrl-C first, skipping that orderly shutdown.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        env: { ...process.env, FONTCONFIG_FILE: fontconfigFile() },
      });
    } catch (error) {
      const reason =
        String((error as Error).message)
          .split('\n')
          .find((line) => line.trim()) ?? String(error);
      throw new Error(
        `PDF browser (${choice.source}: ${choice.executablePath}) failed to start: ${reason}. Set PUPPETEER_EXECUTABLE_PATH to a working Chromium, or install the system libraries it names.`,
        { cause: error },
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

  private async newTab(): Promise<Tab> {
    const page = await (await this.getBrowser()).newPage();
    // Documents are static: no script runs and nothing is fetched.
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    // A request answered after its page closed rejects: nothing to do then, but never unhandled.
    page.on('request', (request) => void (request.url().startsWith('data:') ? request.continue() : request.abort()).catch(() => undefined));
    const session = await page.createCDPSession();
    const { frameTree } = await session.send('Page.getFrameTree');
    return { page, session, frameId: frameTree.frame.id };
  }

  /**
   * Prints an HTML document to PDF on a reused page. Straight over the DevTools protocol: the
   * document is swapped in place (Page.setDocumentContent, no navigation to wait for) and the PDF
   * comes back in the reply. puppeteer's setContent + pdf add a script evaluation, a lifecycle
   * wait, a fonts-ready evaluation and stream reads: more than the printing itself for a letter,
   * whose fonts are local and which loads nothing (docs/performance.md).
   */
  async print(html: string, options: PrintOptions = {}): Promise<Uint8Array> {
    if (this.options.disabled) throw new Error(`no PDF browser in this process: ${this.options.disabled}`);
    await this.acquire();
    let tab: Tab | undefined;
    try {
      tab = this.idle.pop();
      if (!tab || tab.page.isClosed()) tab = await this.newTab();
      await tab.session.send('Page.setDocumentContent', { frameId: tab.frameId, html });
      const { data } = await tab.session.send('Page.printToPDF', {
        transferMode: 'ReturnAsBase64',
        // A4 in inches; the documents' own @page rules (size and margins) take precedence.
        paperWidth: 8.27,
        paperHeight: 11.7,
        marginTop: 0,
        marginBottom: 0,
        marginLeft: 0,
        marginRight: 0,
        preferCSSPageSize: true,
        printBackground: true,
        generateTaggedPDF: true,
        displayHeaderFooter: options.footerTemplate !== undefined,
        headerTemplate: '<span></span>',
        footerTemplate: options.footerTemplate ?? '<span></span>',
      });
      this.idle.push(tab);
      return Buffer.from(data, 'base64');
    } catch (error) {
      await tab?.page.close().catch(() => undefined);
      throw error;
    } finally {
      this.release();
    }
  }

  /** False in a process that never prints (no `printing` role): its pool refuses to start a browser. */
  get enabled(): boolean {
    return !this.options.disabled;
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
