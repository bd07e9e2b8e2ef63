import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import puppeteer, { type Browser } from 'puppeteer-core';
import { loadConfig } from '../lib/config.js';
import { accessLog, logger } from '../lib/logger.js';
import { distRoot, projectRoot } from '../lib/paths.js';
import { startLocalStack } from './local/stack.js';
import { preferredOrFreePort } from './local/ports.js';
import { createDb, migrateLatest } from '../db/knex.js';
import { connectTemporal, ensureSearchAttributes } from '../temporal/connection.js';
import { createWorker, ensureSchedules } from '../worker/worker.js';
import { startApiServer } from '../server/server.js';
import { PATHS, proofAt } from '../domain/mailings/states.js';
import { chooseBrowser } from '../activities/pdf/chromium.js';
import { fontconfigFile } from '../activities/pdf/fonts.js';
import { WebhookReceiver } from '../test/support/webhook-receiver.js';
import { companyDirectory } from '../test/support/partner-server.js';

/**
 * `npm run screenshots`: PNG screenshots of the developer space's main pages, into docs/screenshots/.
 *
 * Starts everything it needs and stops it at the end, even on failure: its own PostgreSQL, Temporal
 * dev server and stripe-mock (scripts/local/stack.ts), a worker and an API server in this process, a
 * local HTTPS webhook receiver (the test certificate, trusted through NODE_EXTRA_CA_CERTS set by the
 * npm script), the company directory replayed from test/fixtures/partners/ (partners are not
 * reachable from every machine), and the browser PDFs use. A developer signs up (the confirmation
 * link is read from the local outbox), then French sample data is made through the real flows:
 * a webhook endpoint and its test event, test mailings through the API with the sandbox key, a
 * top-up paid on the local test payment page, a production access request (opened by the admin
 * CLI), a live mailing that debits the balance, a service request; the send page, a checked CSV batch,
 * a mailing's own page and the home page's charts. Pages are shot at 1280×900 (two at 390 px).
 */

const OUT = join(projectRoot, 'docs', 'screenshots');
const VIEWPORT = { width: 1280, height: 900 };
/** Full-page shots stop there: beyond, PNGs grow large for little. */
const MAX_HEIGHT = 1800;
const EMAIL = 'camille.durand@atelier-lumiere.fr';
const PASSWORD = 'Lumière-et-courrier-2024';
/** La Poste's head office, answered by the replayed directory (test/fixtures/partners/recherche-entreprises/). */
const SIRET_LA_POSTE = '356 000 000 00048';

const say = (line: string): void => void process.stderr.write(`[screenshots] ${line}\n`);

/** What was started, stopped in reverse order whatever happens. */
const stops: { name: string; stop: () => Promise<unknown> }[] = [];
let stopping: Promise<void> | undefined;
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    // Each stop gets 30 s at most; the timer also keeps the process alive until the last one is done.
    for (const { name, stop } of stops.reverse()) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          say(`${name} did not stop within 30 s; going on`);
          resolve();
        }, 30_000);
      });
      await Promise.race([stop().catch((error: unknown) => say(`could not stop ${name}: ${(error as Error).message}`)), timeout]);
      clearTimeout(timer);
    }
  })();
  return stopping;
}

async function main(): Promise<void> {
  // A throw-away local run: its own data folder, secrets, ports; nothing of `npm start` is touched.
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-screenshots-'));
  chmodSync(dataDir, 0o755);
  const removeData = (): void => rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  stops.push({ name: 'data folder', stop: async () => removeData() });
  // The worker's PDF browser (puppeteer) exits the process on SIGINT, before the stops above run:
  // the stack's own exit handlers end its servers, and this one removes the data folder.
  process.once('exit', () => {
    try {
      removeData();
    } catch {
      // A server still writing its last files: the folder is in the system's temporary folder.
    }
  });
  Object.assign(process.env, {
    APP_ENV: 'local',
    DATA_DIR: dataDir,
    SECRET_KEY: randomBytes(32).toString('hex'),
    // The receiver is on this machine; its first answer to a mailing event is a 503, retried after 3 s.
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_DELAYS: '3s,3s,3s,3s,3s,3s,3s',
    OPERATOR_STEP_DELAY: '5s',
    TEMPORAL_LOG_LEVEL: process.env.TEMPORAL_LOG_LEVEL ?? 'ERROR',
  });
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_MOCK_URL', 'SMTP_URL', 'PUBLIC_URL', 'PORT'])
    delete process.env[name];
  logger.level = process.env.LOG_LEVEL || 'warn';
  accessLog.enabled = logger.isLevelEnabled('info');
  if (!process.env.NODE_EXTRA_CA_CERTS) say('NODE_EXTRA_CA_CERTS is unset: the webhook receiver will not be trusted (use npm run screenshots)');

  await companyDirectory.start();
  stops.push({ name: 'company directory replay', stop: () => companyDirectory.stop() });
  process.env.COMPANIES_BASE_URL = companyDirectory.baseUrl;
  const receiver = await new WebhookReceiver().start();
  stops.push({ name: 'webhook receiver', stop: () => receiver.stop() });
  let failedOnce = false;
  receiver.respond = (request) => {
    if (!failedOnce && String(request.body?.type).startsWith('mailing.')) {
      failedOnce = true;
      return { status: 503 };
    }
    return { status: 200 };
  };
  const hookUrl = `https://localhost:${new URL(receiver.url).port}/webhooks/courriers`;

  const config = loadConfig();
  const stack = await startLocalStack(config, { dataDir, persistent: false, uiPort: null, log: say });
  stops.push({ name: 'local stack', stop: () => stack.stop() });
  if (stack.stripeMockUrl) config.stripe.mockUrl = stack.stripeMockUrl;
  const db = createDb(stack.databaseUrl, { role: 'api' });
  const workerDb = createDb(stack.databaseUrl, { role: 'worker' });
  stops.push({ name: 'database pools', stop: () => Promise.all([db.destroy(), workerDb.destroy()]) });
  await migrateLatest(db);
  const temporal = await connectTemporal(stack.temporalAddress, config.temporalNamespace, config);
  stops.push({ name: 'Temporal client', stop: () => temporal.connection.close() });
  await ensureSearchAttributes(temporal.connection, config.temporalNamespace);
  say('Starting the worker…');
  const worker = await createWorker({ config, db: workerDb, address: stack.temporalAddress });
  const workerDone = worker.run();
  stops.push({
    name: 'worker',
    stop: async () => {
      worker.shutdown();
      await workerDone;
    },
  });
  await ensureSchedules(temporal.client, config);
  // Port 3000 when free, so the curl examples on the pages read as with `npm start`.
  const api = await startApiServer(
    { config, db, databaseUrl: stack.databaseUrl, temporal: temporal.client },
    await preferredOrFreePort(config.port),
    '127.0.0.1',
  );
  stops.push({ name: 'API server', stop: () => api.close() });
  const base = `${api.url}/dashboard`;
  say(`API and developer space on ${api.url}`);

  const { executablePath } = await chooseBrowser({ executablePath: config.pdf.executablePath });
  const browser: Browser = await puppeteer.launch({
    executablePath,
    headless: 'shell',
    pipe: true,
    // This script stops the browser itself, after the pages that use it.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--font-render-hinting=none'],
    env: { ...process.env, FONTCONFIG_FILE: fontconfigFile() },
  });
  stops.push({ name: 'browser', stop: () => browser.close() });
  const page = await browser.newPage();
  await page.setViewport({ ...VIEWPORT, deviceScaleFactor: 1 });
  page.setDefaultTimeout(30_000);

  mkdirSync(OUT, { recursive: true });
  const shots: string[] = [];
  /** The page as it is: the viewport, or the whole page up to MAX_HEIGHT. */
  async function shot(name: string, options: { full?: boolean } = {}): Promise<void> {
    const path = join(OUT, `${String(shots.length + 1).padStart(2, '0')}-${name}.png`);
    await page.evaluate('window.scrollTo(0, 0)');
    const height = options.full ? Math.min(MAX_HEIGHT, (await page.evaluate('document.documentElement.scrollHeight')) as number) : VIEWPORT.height;
    await page.screenshot({ path, clip: { x: 0, y: 0, width: VIEWPORT.width, height: Math.max(height, VIEWPORT.height) }, captureBeyondViewport: true });
    shots.push(path);
    say(`${relative(projectRoot, path)} (${Math.round(statSync(path).size / 1024)} KB)`);
  }
  const go = async (path: string): Promise<void> => {
    const response = await page.goto(`${base}${path}`);
    if (!response?.ok()) throw new Error(`GET ${path} answered ${response?.status()}`);
  };
  const fill = async (fields: Record<string, string>): Promise<void> => {
    for (const [name, value] of Object.entries(fields)) {
      await page.$eval(`[name=${name}]`, (input, v) => ((input as unknown as { value: string }).value = v), value);
    }
  };
  /** Clicks and waits for the page it leads to, which must answer 2xx. */
  const click = async (selector: string): Promise<void> => {
    const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
    if (!response?.ok()) throw new Error(`${selector} led to ${response?.status()} at ${page.url()}: ${await page.$eval('main', (m) => m.textContent)}`);
  };
  const text = (selector: string): Promise<string> => page.$eval(selector, (element) => element.textContent!.trim());

  // --- Sign-up, confirmation from the outbox, sign-in: the sandbox key is shown once on the home page.
  say('Signing up…');
  await go('/inscription');
  await fill({ email: EMAIL, password: PASSWORD });
  await click('main button[type=submit]');
  await page.goto(await confirmationLink(config.mail.outboxDir, EMAIL));
  if ((await text('h1')) !== 'Adresse confirmée') throw new Error(`confirmation failed: ${await text('main')}`);
  await go('/connexion');
  await fill({ email: EMAIL, password: PASSWORD });
  await shot('connexion');
  await click('main button[type=submit]');
  const sandboxKey = await text('#new-key');
  await shot('accueil-cle-sandbox');
  const accountId = (await db('developer_users').where({ email: EMAIL }).first('account_id')).account_id as string;

  // --- A webhook endpoint on the local receiver: its secret is shown once; then a test event.
  say('Webhooks…');
  await go('/webhooks');
  await fill({ url: hookUrl });
  await click('form[action$="/webhooks"] button[type=submit]');
  await shot('webhooks-secret');
  await click('form[action$="/essai"] button[type=submit]');
  await receiver.until((received) => received.some((r) => r.body.type === 'ping'));

  // --- Test mailings through the API with the sandbox key, moved along with the test endpoint.
  say('Test mailings…');
  const call = apiClient(api.url, sandboxKey);
  const mailings = [
    { mailing: sampleMailing('registered', 'Mise en demeure de payer', 'FAC-2024-118', 0), steps: 4 },
    { mailing: sampleMailing('ar', 'Résiliation du bail commercial', 'BAIL-0042', 1), steps: 3 },
    { mailing: sampleMailing('simple', 'Relance : facture impayée', 'REL-0007', 2), steps: 2 },
    { mailing: sampleMailing('registered', 'Convocation à l’assemblée générale', 'AG-2024', 3), steps: 0 },
  ];
  for (const { mailing, steps } of mailings) {
    const { id } = (await call('POST', '/v1/mailings', mailing, 201)) as { id: string };
    for (let step = 1; step <= steps; step++) await call('POST', `/v1/test/mailings/${id}/advance`, { step }, 200);
    await waitFor(`mailing ${mailing.reference} at step ${steps}`, async () => {
      const found = (await call('GET', `/v1/mailings/${id}`, undefined, 200)) as { status: string; proofs: unknown[] };
      const proofs = PATHS[mailing.mode].slice(1, steps + 1).filter((status) => proofAt(mailing.mode, status)).length;
      return found.status === PATHS[mailing.mode][steps] && found.proofs.length >= proofs;
    });
  }

  // --- Keys: a production key with chosen scopes, shown once above the list.
  say('API keys…');
  await go('/cles');
  await page.click('input[name=mode][value=live]');
  for (const scope of await page.$$eval('input[name=scopes]', (inputs) => inputs.map((i) => (i as unknown as { value: string }).value)))
    if (!scope.startsWith('mailings')) await page.click(`input[name=scopes][value="${scope}"]`);
  await click('form[action$="/cles"] button[type=submit]');
  const liveKey = await text('#new-key');
  await shot('cles', { full: true });

  // --- Webhook deliveries: every event of the mailings above reached the receiver.
  say('Webhook deliveries…');
  let seen = -1;
  await waitFor('every webhook delivery settled', async () => {
    const rows: { status: string }[] = await db('webhook_deliveries').where({ account_id: accountId }).select('status');
    const settled = rows.length > 1 && rows.length === seen && rows.every((row) => row.status === 'delivered');
    seen = rows.length;
    if (!settled) await sleep(1000);
    return settled;
  });
  await go('/webhooks/livraisons');
  await shot('webhooks-livraisons', { full: true });
  const retried = await db('webhook_deliveries').where({ account_id: accountId }).where('attempts', '>', 1).first('id');
  await go(`/webhooks/livraisons/${retried?.id ?? (await db('webhook_deliveries').where({ account_id: accountId }).first('id')).id}`);
  await shot('webhooks-livraison', { full: true });

  // --- Mailings page (test environment).
  await go('/envois');
  await shot('envois', { full: true });
  // --- One mailing on its own page: its steps, tracking number, proofs and the webhooks it caused.
  const first = await page.$eval('#mailings a.mailing-link', (a) => a.getAttribute('href')!);
  await go(first.replace('/dashboard', ''));
  await shot('envoi-detail', { full: true });

  // --- Sending one letter from the space (the free-form letter's form).
  say('Send and batch pages…');
  await go('/envois/nouveau?type=libre');
  await shot('envoyer-une-lettre', { full: true });

  // The sender of both batch forms.
  const atelier = { senderName: 'Atelier Lumière', senderLine1: '14 rue des Tanneurs', senderPostalCode: '69002', senderCity: 'Lyon' };
  // --- A batch from a CSV file: the form checked, every row's result and the total.
  await go('/envois/lots');
  await fill({
    ...atelier,
    title: 'Votre rendez-vous du {{date}}',
    body: 'Bonjour {{prenom}},\n\nNous vous confirmons votre rendez-vous du {{date}} à l’atelier.\n\nBien cordialement.',
    csv: [
      'name;line1;postalCode;city;reference;prenom;date',
      'Claire Martin;3 rue Mercière;69002;Lyon;RDV-101;Claire;12 janvier',
      'Hugo Bernard;8 quai Saint-Vincent;69001;Lyon;RDV-102;Hugo;13 janvier',
      'Inès Petit;21 avenue Jean Jaurès;69007;Lyon;RDV-103;Inès;14 janvier',
    ].join('\n'),
  });
  await click('#check-batch');
  await page.waitForSelector('#batch-report', { timeout: 120_000 });
  await shot('envoi-en-nombre', { full: true });

  // --- A file of 3 000 rows: its check runs after the answer, and its page shows the rows checked so far.
  await go('/envois/lots');
  await fill({
    ...atelier,
    title: 'Votre rendez-vous du {{date}}',
    body: 'Bonjour {{prenom}},\n\nNous vous confirmons votre rendez-vous du {{date}} à l’atelier.',
    csv: [
      'name;line1;postalCode;city;reference;prenom;date',
      ...Array.from({ length: 3000 }, (_, i) => `Client ${i + 1};3 rue Mercière;69002;Lyon;RDV-${1000 + i};Client ${i + 1};12 janvier`),
    ].join('\n'),
  });
  await click('#check-batch');
  await page.waitForFunction("Number(document.getElementById('batch-check-bar')?.getAttribute('value')) > 0 || document.getElementById('batch-report')", {
    timeout: 120_000,
  });
  await shot('envoi-en-nombre-verification');
  await page.waitForSelector('#batch-report', { timeout: 300_000 });

  // --- The billing profile every invoice carries (Stripe customer: name, address, VAT number).
  say('Billing profile…');
  await go('/facturation');
  await fill({
    legalName: 'Atelier Lumière SARL',
    addressLine1: '14 rue des Tanneurs',
    postalCode: '69002',
    city: 'Lyon',
    siret: '35600000000048',
    vatNumber: 'FR39356000000',
    email: 'compta@atelier-lumiere.fr',
  });
  await click('main form button[type=submit]');
  await shot('profil-facturation', { full: true });

  // --- A 50 € top-up paid on the local test payment page, then its invoice.
  say('Top-up…');
  await go('/solde');
  await page.click('input[name=amountCents][value="5000"]');
  await click('#topup-form button[type=submit]');
  await shot('paiement-test');
  await click('#pay');
  await waitFor('the top-up credited and its invoice recorded', async () => {
    const topUp = await db('topups').where({ account_id: accountId }).first('status', 'invoice_url');
    return topUp?.status === 'paid' && Boolean(topUp.invoice_url);
  });

  // --- Production access: the form filled in, then the request waiting for an operator.
  say('Production access…');
  await go('/production');
  await fill({
    siret: SIRET_LA_POSTE,
    legalName: '',
    address: '',
    useCase:
      'Envoi des mises en demeure et des lettres de résiliation de nos clients artisans, en recommandé avec accusé de réception : environ 300 courriers par mois, déclenchés depuis notre logiciel de facturation.',
  });
  await shot('production-formulaire');
  await click('main form button[type=submit]');
  await shot('production-en-attente', { full: true });
  // The operator opens production with the admin CLI; the production key can now post.
  await admin(stack.databaseUrl, ['account', 'live-enable', '--account', accountId]);
  const live = apiClient(api.url, liveKey);
  await live('POST', '/v1/mailings', sampleMailing('ar', 'Mise en demeure avant résiliation', 'MED-2024-031', 1), 201);

  // --- The home page's overview: the month's mailings by mode, the balance over time, the webhooks' success rate.
  await go('');
  await shot('accueil-tableau-de-bord', { full: true });

  await go('/solde');
  await shot('solde', { full: true });
  const invoice = await page.$eval('a.invoice-link', (a) => a.getAttribute('href')!);
  await page.goto(`${api.url}${invoice}`);
  await shot('facture-test');

  // --- Service requests: one sent through the form, another one the team has looked at.
  say('Service requests…');
  await go('/demandes');
  await fill({
    kind: 'letter',
    title: 'Contestation d’un avis de contravention (ANTAI)',
    description: 'Une lettre de contestation d’un avis de contravention, avec le numéro de l’avis, le motif et les pièces jointes citées.',
    useCase: 'Nos clients gestionnaires de flotte contestent les avis reçus pour leurs véhicules.',
  });
  await click('main form button[type=submit]');
  await fill({
    kind: 'calculator',
    title: 'Calcul des indemnités kilométriques 2024',
    description: 'Le barème fiscal des indemnités kilométriques selon la puissance du véhicule et la distance annuelle.',
    contactEmail: EMAIL,
  });
  await click('main form button[type=submit]');
  const calculator = await page.$eval('tr[data-request-id]', (row) => row.getAttribute('data-request-id')!);
  await admin(stack.databaseUrl, [
    'request',
    'set-status',
    '--id',
    calculator,
    '--status',
    'planned',
    '--note',
    'Prévu pour le prochain trimestre, avec le barème publié chaque année.',
  ]);
  await go('/demandes');
  await shot('demandes', { full: true });

  // --- Production access once the operator opened it.
  await go('/production');
  await shot('production-ouverte');

  // --- The request log (written by each API process within a second) and the audit log.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await go('/journal');
  await shot('journal-requetes');
  await go('/audit');
  await shot('audit');

  // --- The team: a developer invited (the invitation waits for its emailed link).
  await go('/equipe');
  await page.$eval('#invite_email', (input) => ((input as unknown as { value: string }).value = 'leo.martin@atelier-lumiere.fr'));
  await page.$eval('#invite_role', (select) => ((select as unknown as { value: string }).value = 'developer'));
  await click('#invite-form button[type=submit]');
  await shot('equipe', { full: true });

  // --- Account settings: password, email, two-factor sign-in.
  await go('/parametres');
  await shot('parametres', { full: true });

  // --- The webhooks page on a phone (390 px): tables scroll within themselves.
  await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 1 });
  await go('/webhooks');
  const narrow = join(OUT, `${String(shots.length + 1).padStart(2, '0')}-webhooks-390px.png`);
  await page.screenshot({ path: narrow, fullPage: true });
  shots.push(narrow);
  say(`${relative(projectRoot, narrow)} (${Math.round(statSync(narrow).size / 1024)} KB)`);
  // --- A mailing's page on a phone: the menu folded behind its button.
  await go(first.replace('/dashboard', ''));
  const narrowMailing = join(OUT, `${String(shots.length + 1).padStart(2, '0')}-envoi-detail-390px.png`);
  await page.screenshot({ path: narrowMailing, fullPage: true });
  shots.push(narrowMailing);
  await page.setViewport({ ...VIEWPORT, deviceScaleFactor: 1 });

  // Shots of an earlier run that this one did not make again (renamed or dropped pages).
  for (const file of readdirSync(OUT)) if (file.endsWith('.png') && !shots.includes(join(OUT, file))) rmSync(join(OUT, file));
  say(`${shots.length} screenshots in ${relative(process.cwd(), OUT) || OUT}/`);
  for (const path of shots) console.log(relative(process.cwd(), path));
}

/** The confirmation link of the email written to the local outbox (base64 text, lib/mailer.ts). */
async function confirmationLink(outboxDir: string, to: string): Promise<string> {
  let link: string | undefined;
  await waitFor(`the confirmation email to ${to}`, async () => {
    if (!existsSync(outboxDir)) return false;
    for (const file of readdirSync(outboxDir)) {
      const raw = readFileSync(join(outboxDir, file), 'utf8');
      const [headers = '', ...rest] = raw.split(/\r?\n\r?\n/);
      if (!headers.includes(to)) continue;
      const body = Buffer.from(rest.join('\n').replace(/\s+/g, ''), 'base64').toString('utf8');
      link = /http:\/\/\S+\/dashboard\/confirmation\?token=\S+/.exec(body)?.[0];
      if (link) return true;
    }
    return false;
  });
  return link!;
}

/** A JSON call with a key; throws unless the answer has the expected status. */
function apiClient(apiUrl: string, key: string) {
  return async (method: string, path: string, body: unknown, expected: number): Promise<unknown> => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer: unknown = await response.json();
    if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
}

const SENDER = { name: 'SARL Atelier Lumière', lines: ['14 rue de la République'], postcode: '69002', city: 'Lyon' };
const RECIPIENTS = [
  { name: 'M. Julien Moreau', lines: ['8 allée des Tilleuls'], postcode: '33000', city: 'Bordeaux' },
  { name: 'SCI Les Terrasses', lines: ['27 quai de la Fosse'], postcode: '44000', city: 'Nantes' },
  { name: 'Mme Sophie Lefèvre', lines: ['3 place du Capitole'], postcode: '31000', city: 'Toulouse' },
  { name: 'Copropriété Le Belvédère', lines: ['52 boulevard Longchamp'], postcode: '13001', city: 'Marseille' },
];

function sampleMailing(mode: 'simple' | 'registered' | 'ar', title: string, reference: string, to: number) {
  const recipient = RECIPIENTS[to]!;
  return {
    mode,
    reference,
    sender: SENDER,
    recipient,
    letter: {
      title,
      body: `Madame, Monsieur,\n\nPar la présente, nous revenons vers vous au sujet de notre dossier ${reference}.\n\nNous vous prions d’agréer, Madame, Monsieur, l’expression de nos salutations distinguées.\n\nCamille Durand, gérante`,
    },
  };
}

/** The admin CLI on the same database, as an operator runs it. */
async function admin(databaseUrl: string, args: string[]): Promise<void> {
  const child = spawn(process.execPath, [join(distRoot, 'scripts', 'admin.js'), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`admin ${args.join(' ')} failed (${code}): ${output}`);
}

async function waitFor(what: string, done: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    say(`${signal}: stopping…`);
    void stopAll().finally(() => process.exit(1));
  });

main().then(
  async () => {
    await stopAll();
    process.exit(0);
  },
  async (error: unknown) => {
    console.error(`npm run screenshots: ${(error as Error).stack ?? String(error)}`);
    await stopAll();
    process.exit(1);
  },
);
