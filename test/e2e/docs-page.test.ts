import { expect } from 'chai';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chooseBrowser } from '../../activities/pdf/chromium.js';
import { fontconfigFile } from '../../activities/pdf/fonts.js';
import { routes } from '../../api/routes/index.js';
import { stack } from '../support/stack.js';
import { call } from '../support/api.js';

/** /docs in the browser that prints the letters: Redoc renders the document, from our server only. */
describe('the /docs page in a browser', function () {
  this.timeout(180_000);
  let browser: Browser;

  before(async () => {
    const choice = await chooseBrowser();
    browser = await puppeteer.launch({
      executablePath: choice.executablePath,
      headless: 'shell',
      pipe: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
      env: { ...process.env, FONTCONFIG_FILE: fontconfigFile() },
    });
  });
  after(async () => browser?.close());

  it('serves the renderer from the redoc npm package, with a policy that allows no other origin', async () => {
    const page = await call('GET', '/docs');
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<script src="/docs/redoc.standalone.js">');
    expect(page.text).to.not.match(/https?:\/\//);
    expect(page.headers.get('content-security-policy')).to.include("script-src 'self'");
    const script = await call('GET', '/docs/redoc.standalone.js');
    expect(script.status).to.equal(200);
    expect(script.headers.get('content-type')).to.include('javascript');
    expect(script.text.length).to.be.greaterThan(500_000);
  });

  it('renders every operation with its curl sample, the error table, the webhooks and the signature check; nothing leaves our server', async () => {
    const origin = new URL(stack().api.url).origin;
    const page = await browser.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const blocked: string[] = [];
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
    page.on('console', (message) => {
      // Chromium reports what the page's Content-Security-Policy stopped before it left.
      const csp = /^Loading the \w+ '([^']+)' violates the following Content Security Policy directive: .* The action has been blocked\.$/.exec(message.text());
      if (csp) blocked.push(csp[1]!);
      else if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await page.goto(`${origin}/docs`, { waitUntil: 'networkidle0', timeout: 60_000 });
    await page.waitForSelector('[id^="operation/"]', { timeout: 60_000 });

    const ids = await page.$$eval('[id^="operation/"]', (elements) => elements.map((e) => e.id));
    for (const route of routes) expect(ids, route.operationId).to.include(`operation/${route.operationId}`);
    const text = await page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);
    for (const expected of ['curl', 'idempotency_key_reused', 'service_unavailable', 'mailing.proof_available', 'timingSafeEqual', 'Service-Signature'])
      expect(text, expected).to.include(expected);

    // Redoc's bundle links its attribution logo from its CDN; the page's Content-Security-Policy
    // stops it in the browser (Redoc then drops the image): nothing reaches another origin.
    const elsewhere = requested.filter((url) => !url.startsWith(origin + '/') && !url.startsWith('blob:') && !url.startsWith('data:'));
    expect(
      elsewhere.filter((url) => !blocked.includes(url)),
      'requests that left for another origin',
    ).to.deep.equal([]);
    expect(requested).to.include(`${origin}/v1/openapi.json`);
    expect(problems).to.deep.equal([]);
    expect(
      failed.filter((url) => !blocked.includes(url)),
      'failed requests',
    ).to.deep.equal([]);
    await page.close();
  });
});
