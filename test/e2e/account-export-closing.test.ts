import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { readFile, stat, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'puppeteer-core';
import { readTar } from '../../lib/tar.js';
import { changeAccount } from '../../domain/access/accounts.js';
import { SCOPES } from '../../domain/access/scopes.js';
import { topUp } from '../../domain/billing/ledger.js';
import { createWebhookEndpoint, setWebhookEndpointEnabled } from '../../domain/webhooks/endpoints.js';
import { cancelClosing, closeAccount, closeByOperator } from '../../domain/access/closing.js';
import { distRoot } from '../../lib/paths.js';
import { closeAccounts } from '../../workflows/index.js';
import { advanceMailing } from '../../domain/mailings/updates.js';
import { findMailingRow } from '../../domain/mailings/mailing.js';
import { domainDeps } from '../../temporal/domain-deps.js';
import { admin } from '../support/admin.js';
import { call, createAccount, createKey, eventually, postSimpleLetter, startedMailingWorkflow } from '../support/api.js';
import { startDashboard, PASSWORD, type Dashboard } from '../support/dashboard.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { base64, textPdf } from '../support/own-pdfs.js';
import { stack } from '../support/stack.js';
import { seedMailings } from '../support/seed-mailings.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { killAbruptly, track } from '../support/processes.js';

const run = promisify(execFile);

/** Issue 53 item 2: the export of everything held for an account, and closing an account. */
describe('account export and closing', function () {
  this.timeout(300_000);
  let dash: Dashboard;
  let receiver: WebhookReceiver;
  const GRACE_MS = 3000;

  before(async () => {
    dash = await startDashboard((config) => ({ ...config, accountClosingGraceMs: GRACE_MS }));
    receiver = await new WebhookReceiver().start();
  });
  after(async () => {
    await dash?.close();
    await receiver?.stop();
  });

  const db = () => stack().db;
  const apiUrl = () => stack().api.url;

  /** The account ready for live mailings: production open, a balance, a live key, an endpoint on the receiver. */
  async function liveSetup(accountId: string, cents: number): Promise<{ liveKey: string; endpointId: string }> {
    const { config } = stack();
    await changeAccount(db(), accountId, { liveEnabled: true });
    if (cents) await topUp(db(), accountId, cents, 'test setup');
    const liveKey = await createKey(accountId, 'live', [...SCOPES]);
    const endpoint = await createWebhookEndpoint(db(), config, { accountId, url: receiver.url, env: 'live', events: [] });
    return { liveKey, endpointId: endpoint.id };
  }

  /** A POST of one of the page's forms from outside the browser (its session cookie and CSRF token): the raw answer. */
  async function postForm(page: Page, path: string, fields: Record<string, string> = {}): Promise<Response> {
    const cookie = (await page.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const csrf = await page.$eval('input[name=_csrf]', (input) => (input as unknown as { value: string }).value);
    return fetch(`${dash.base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': dash.newAddress() },
      body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
    });
  }

  const untar = (gzipped: Buffer): Map<string, Buffer> => new Map(readTar(gunzipSync(gzipped)).map((f) => [f.path, f.bytes]));
  const jsonOf = (files: Map<string, Buffer>, path: string): any => {
    expect(files.has(path), `${path} in the archive`).to.equal(true);
    return JSON.parse(files.get(path)!.toString('utf8'));
  };
  const pagedRows = (files: Map<string, Buffer>, prefix: string): any[] =>
    [...files.keys()]
      .filter((p) => p.startsWith(prefix))
      .sort()
      .flatMap((p) => jsonOf(files, p));

  const statusOf = async (mailingId: string): Promise<string> => (await db()('shipments').where({ id: mailingId }).first('status')).status;
  const runClosingSchedule = () =>
    stack().temporal.client.workflow.execute(closeAccounts, { taskQueue: stack().config.taskQueue, workflowId: `test-account-closing-${randomUUID()}` });
  const auditCount = async (accountId: string, action: string): Promise<number> => {
    const [{ n }] = await db()('audit_log').where({ account_id: accountId, action }).count({ n: '*' });
    return Number(n);
  };
  const inboxFor = (to: string, pattern: RegExp) => dash.inbox.filter((m) => m.to === to && pattern.test(m.text));

  it('exports everything held for the account as one .tar.gz, from the space (owner, audit-logged) and the admin CLI alike', async () => {
    await dash.withPage(async (page) => {
      const { accountId } = await dash.signedInDeveloper(page);
      const { liveKey, endpointId } = await liveSetup(accountId, 20_000);
      const pdf = await textPdf({ pages: 2 });
      const registered = await call('POST', '/v1/mailings', { key: liveKey, body: { mode: 'registered', letter: freeLetter, sender, recipient } });
      expect(registered.status, registered.text).to.equal(201);
      const own = await call('POST', '/v1/mailings', {
        key: liveKey,
        body: { mode: 'simple', letter: { pdf: base64(pdf), title: 'Mon courrier' }, sender, recipient },
      });
      expect(own.status, own.text).to.equal(201);
      // The registered letter to its end (its workflow over): its proofs are stored, its webhooks delivered.
      await (await startedMailingWorkflow(registered.body.id)).result();
      await (await startedMailingWorkflow(own.body.id)).result();
      expect(await statusOf(registered.body.id)).to.equal('delivered');
      const proofs = await db()('shipment_proofs').where({ shipment_id: registered.body.id }).select('kind', 'pdf');
      const allProofs = await db()('shipment_proofs').whereIn('shipment_id', [registered.body.id, own.body.id]).select('shipment_id', 'kind', 'pdf');
      expect(proofs.length).to.be.greaterThan(0);
      await eventually(
        () => db()('webhook_deliveries').where({ account_id: accountId, status: 'delivered' }).count({ n: '*' }),
        (rows) => Number(rows[0]!.n) > 0,
        30_000,
        200,
      );

      await page.goto(`${dash.base}/donnees`);
      expect(await dash.heading(page)).to.equal('Données et clôture du compte');
      const answer = await postForm(page, '/donnees/export');
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('content-type')).to.equal('application/gzip');
      expect(answer.headers.get('content-disposition')).to.match(/^attachment; filename="svc-postal-export-[0-9a-f-]+-\d{4}-\d{2}-\d{2}\.tar\.gz"$/);
      const files = untar(Buffer.from(await answer.arrayBuffer()));
      expect(await auditCount(accountId, 'account.exported')).to.equal(1);

      const manifest = jsonOf(files, 'manifest.json');
      expect(manifest).to.include({ format: 'svc-postal-account-export', version: 1, accountId });
      expect(manifest.counts).to.include({ mailings: 2, ownPdfs: 1, proofs: allProofs.length, webhookEndpoints: 1, teamMembers: 1 });
      for (const proof of allProofs)
        expect(files.get(`mailings/${proof.shipment_id}/proof-${proof.kind}.pdf`)!.equals(proof.pdf), `${proof.shipment_id} ${proof.kind}`).to.equal(true);
      expect(jsonOf(files, 'account.json')).to.include({ id: accountId, closure: null });

      // Each mailing: its stored letter and recipient, its events, its files.
      const registeredJson = jsonOf(files, `mailings/${registered.body.id}/mailing.json`);
      expect(registeredJson.mailing.recipient).to.deep.equal((await db()('shipments').where({ id: registered.body.id }).first('recipient')).recipient);
      expect(registeredJson.mailing.document).to.deep.equal((await db()('shipments').where({ id: registered.body.id }).first('document')).document);
      expect(JSON.stringify(registeredJson.mailing.document)).to.include(JSON.stringify(freeLetter.body).slice(1, -1));
      expect(registeredJson.events.map((e: { status: string }) => e.status)).to.include.members(['paid', 'printed', 'posted', 'delivered']);
      for (const proof of proofs) expect(files.get(`mailings/${registered.body.id}/proof-${proof.kind}.pdf`)!.equals(proof.pdf), proof.kind).to.equal(true);
      expect(files.get(`mailings/${own.body.id}/letter.pdf`)!.equals(Buffer.from(pdf))).to.equal(true);
      expect(jsonOf(files, `mailings/${own.body.id}/mailing.json`).files).to.deep.include({
        kind: 'own_pdf',
        file: `mailings/${own.body.id}/letter.pdf`,
        sha256: createHash('sha256').update(pdf).digest('hex'),
        pages: 2,
      });

      // Webhooks: the endpoint without any secret, and its deliveries as recorded.
      const endpoints = jsonOf(files, 'webhooks/endpoints.json');
      expect(endpoints.map((e: { id: string }) => e.id)).to.deep.equal([endpointId]);
      expect(files.get('webhooks/endpoints.json')!.toString()).to.not.match(/secret_sealed|whsec_|"secret"/);
      const deliveries = pagedRows(files, 'webhooks/deliveries-');
      const recorded = await db()('webhook_deliveries').where({ account_id: accountId }).pluck('id');
      expect(deliveries.map((d: { id: string }) => d.id).sort()).to.deep.equal([...recorded].sort());
      expect(deliveries.every((d: { payload: { type: string } }) => typeof d.payload.type === 'string')).to.equal(true);

      // Money: every ledger entry, the same sum as the balance.
      const ledger = pagedRows(files, 'billing/ledger-');
      const entries = await db()('ledger_entries').where({ account_id: accountId }).select('id', 'amount_cents');
      expect(ledger.map((l: { id: number }) => l.id).sort()).to.deep.equal(entries.map((e) => Number(e.id)).sort());
      expect(ledger.reduce((sum: number, l: { amountCents: number }) => sum + l.amountCents, 0)).to.equal(
        Number((await db()('accounts').where({ id: accountId }).first('balance_cents')).balance_cents),
      );
      expect(pagedRows(files, 'audit/audit-').map((a: { action: string }) => a.action)).to.include.members(['webhook.created', 'signin.succeeded']);
      expect(jsonOf(files, 'team.json').members).to.have.length(1);

      // Owners only: a member with the developer role, invited through the team page, is refused the page and the download.
      const memberEmail = dash.newEmail();
      await page.goto(`${dash.base}/equipe`);
      await page.select('#invite_role', 'developer');
      expect(await dash.submit(page, { email: memberEmail }, '#invite-form button')).to.equal(200);
      const invitation = await dash.waitForMail(memberEmail, /http:\/\/\S+\/dashboard\/invitation\?token=\S+/);
      await dash.withPage(async (member) => {
        await member.goto(invitation);
        expect(await dash.submit(member, { password: PASSWORD }, '#join-form button')).to.equal(200);
        expect((await member.goto(`${dash.base}/donnees`))!.status()).to.equal(403);
        expect(await member.$$eval('nav a', (links) => links.map((a) => a.getAttribute('href')))).to.not.include('/dashboard/donnees');
        await member.goto(`${dash.base}/parametres`);
        expect((await postForm(member, '/donnees/export')).status).to.equal(403);
        expect((await postForm(member, '/donnees/cloture', { closing_password: PASSWORD })).status).to.equal(403);
      });
      expect(await auditCount(accountId, 'account.exported')).to.equal(1);

      // The admin CLI writes the same archive to a file.
      const out = join(tmpdir(), `export-${randomUUID()}.tar.gz`);
      try {
        const cli = await admin(['account', 'export', '--account', accountId, '--out', out]);
        expect(cli.code, JSON.stringify(cli.json)).to.equal(0);
        expect(cli.json.file).to.equal(out);
        expect(cli.json.bytes).to.equal((await stat(out)).size);
        expect(cli.json.counts).to.deep.include({
          mailings: 2,
          ownPdfs: 1,
          proofs: allProofs.length,
          webhookDeliveries: recorded.length,
          ledgerEntries: entries.length,
        });
        const fromCli = untar(await readFile(out));
        // An independent reader, GNU tar, lists the same files.
        const { stdout } = await run('tar', ['-tzf', out]);
        expect(stdout.trim().split('\n').sort()).to.deep.equal([...fromCli.keys()].sort());
        expect([...fromCli.keys()].filter((p) => p.startsWith('mailings/')).sort()).to.deep.equal(
          [...files.keys()].filter((p) => p.startsWith('mailings/')).sort(),
        );
        expect(fromCli.get(`mailings/${own.body.id}/letter.pdf`)!.equals(Buffer.from(pdf))).to.equal(true);
      } finally {
        await rm(out, { force: true });
      }
      expect(await auditCount(accountId, 'account.exported')).to.equal(2);
      expect((await admin(['account', 'export', '--account', randomUUID(), '--out', out])).json.error.code).to.equal('not_found');
    });
  });

  it('exports an account of many mailings page after page: each mailing once, with its proofs', async () => {
    const account = await createAccount({ balanceCents: 5000 });
    const template = await postSimpleLetter(apiUrl(), account.liveKey);
    await (await startedMailingWorkflow(template)).result();
    // 450 more: over two pages of the export's reads (200 rows), with filing proofs.
    await seedMailings(db(), template, 450, { proofs: true });
    const ids = await db()('shipments').where({ account_id: account.id }).pluck('id');
    const proofRows = await db()('shipment_proofs').whereIn('shipment_id', ids).count({ n: '*' });
    expect(ids).to.have.length(451);
    expect(Number(proofRows[0]!.n)).to.be.greaterThan(100);
    const out = join(tmpdir(), `export-${randomUUID()}.tar.gz`);
    try {
      const cli = await admin(['account', 'export', '--account', account.id, '--out', out]);
      expect(cli.code, JSON.stringify(cli.json)).to.equal(0);
      expect(cli.json.counts).to.deep.include({ mailings: 451, proofs: Number(proofRows[0]!.n) });
      const files = untar(await readFile(out));
      const exported = [...files.keys()].filter((p) => /^mailings\/[^/]+\/mailing\.json$/.test(p)).map((p) => p.split('/')[1]);
      expect(exported.sort()).to.deep.equal([...ids].sort());
    } finally {
      await rm(out, { force: true });
    }
  });

  it('closing: asked with the password, confirmed once by the emailed link; keys refused at once, webhooks stopped, a paid mailing goes on; closed after the grace period: credit refunded, data erased, invoices and ledger kept', async () => {
    await dash.withPage(async (page) => {
      const { email, accountId } = await dash.signedInDeveloper(page);
      const { liveKey, endpointId } = await liveSetup(accountId, 0);
      // A Stripe top-up through the test payment page: an invoice to keep.
      await page.goto(`${dash.base}/solde`);
      await page.click('input[name=amountCents][value=other]');
      await page.type('input[name=otherEuros]', '35');
      await Promise.all([page.waitForNavigation(), page.click('#topup-form button[type=submit]')]);
      await Promise.all([page.waitForNavigation(), page.click('#pay')]);
      const topUp = await eventually(
        () => db()('topups').where({ account_id: accountId }).first('id', 'status', 'invoice_id'),
        (t) => t?.status === 'paid' && t.invoice_id !== null,
        30_000,
        100,
      );
      expect(topUp.invoice_id).to.be.a('string');

      // The wrong password asks nothing; the right one emails the link to the owner.
      await page.goto(`${dash.base}/donnees`);
      expect(await dash.submit(page, { closing_password: 'pas le bon mot de passe' }, '#closing-form button')).to.equal(401);
      expect(await auditCount(accountId, 'account.closing_requested')).to.equal(0);
      expect(await dash.submit(page, { closing_password: PASSWORD }, '#closing-form button')).to.equal(200);
      const link = await dash.waitForMail(email, /http:\/\/\S+\/dashboard\/cloture\/confirmer\?token=\S+/);
      // Asked, not confirmed: the keys still work.
      expect((await call('GET', '/v1/mailings?limit=1', { key: liveKey })).status).to.equal(200);

      // A mailing paid before the confirmation, and a delivery that keeps failing, retrying.
      receiver.respond = () => ({ status: 500 });
      const posted = await call('POST', '/v1/mailings', { key: liveKey, body: { mode: 'registered', letter: freeLetter, sender, recipient } });
      expect(posted.status, posted.text).to.equal(201);
      const mailingId = posted.body.id as string;
      const balanceBefore = Number((await db()('accounts').where({ id: accountId }).first('balance_cents')).balance_cents);
      expect(balanceBefore).to.equal(3500 - Number((await db()('shipments').where({ id: mailingId }).first('amount_cents')).amount_cents));
      await eventually(
        () => db()('webhook_deliveries').where({ account_id: accountId, status: 'pending' }).where('attempts', '>=', 1).first('id'),
        (row) => row !== undefined,
        10_000,
        20,
      );
      // The key is in the API's cache (the answer above was authenticated through it).
      expect((await call('GET', '/v1/mailings?limit=1', { key: liveKey })).status).to.equal(200);

      // Two openings of the link at once: one confirms.
      const confirmations = await Promise.all([fetch(link), fetch(link)]);
      const confirmedAt = Date.now();
      expect(confirmations.map((r) => r.status).sort()).to.deep.equal([200, 400]);
      const refused = await eventually(
        () => call('GET', '/v1/mailings?limit=1', { key: liveKey }),
        (r) => r.status === 403,
      );
      expect(refused.body.error.code).to.equal('account_suspended');
      const created = await call('POST', '/v1/mailings', { key: liveKey, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
      expect(created.status).to.equal(403);
      expect(await auditCount(accountId, 'account.closing_confirmed')).to.equal(1);
      await dash.waitForMail(email, /Clôture de votre compte confirmée|La clôture du compte est confirmée/);

      // Webhooks: nothing pending, the retrying delivery ended without another attempt, none for the mailing's later steps.
      expect(await db()('webhook_deliveries').where({ account_id: accountId, status: 'pending' }).count({ n: '*' })).to.deep.equal([{ n: '0' }]);
      const canceled = await db()('webhook_deliveries').where({ account_id: accountId, status: 'canceled' }).select('id', 'attempts');
      expect(canceled.length).to.be.greaterThan(0);
      expect((await db()('webhook_endpoints').where({ id: endpointId }).first('disabled_at')).disabled_at).to.be.instanceOf(Date);

      // The paid mailing reaches its end all the same.
      expect(await statusOf(mailingId)).to.not.equal('delivered');
      await (await startedMailingWorkflow(mailingId)).result();
      expect(await statusOf(mailingId)).to.equal('delivered');
      await sleep(1500);
      expect(receiver.received.filter((r) => r.at > confirmedAt + 1000)).to.have.length(0);
      const attemptsNow = await db()('webhook_deliveries')
        .whereIn(
          'id',
          canceled.map((c) => c.id),
        )
        .select('id', 'attempts');
      expect(attemptsNow).to.have.deep.members(canceled);
      expect(await db()('webhook_deliveries').where({ account_id: accountId }).where('created_at', '>', new Date(confirmedAt)).count({ n: '*' })).to.deep.equal(
        [{ n: '0' }],
      );
      receiver.respond = () => ({ status: 200 });

      // The grace period over: two runs of the schedule at once close the account once.
      await eventually(
        async () => (await db()('account_closings').where({ account_id: accountId }).whereNull('canceled_at').first('closes_at')).closes_at as Date,
        (closesAt) => closesAt.getTime() <= Date.now(),
        GRACE_MS + 2000,
        200,
      );
      await Promise.all([runClosingSchedule(), runClosingSchedule()]);
      const account = await db()('accounts').where({ id: accountId }).first('closure', 'balance_cents');
      expect(account).to.deep.equal({ closure: 'closed', balance_cents: '0' });
      const closingRefunds = await db()('ledger_entries')
        .where({ account_id: accountId, kind: 'closing_refund' })
        .select('amount_cents', 'balance_after_cents');
      expect(closingRefunds).to.deep.equal([{ amount_cents: String(-balanceBefore), balance_after_cents: '0' }]);
      const [{ sum }] = await db()('ledger_entries').where({ account_id: accountId }).sum({ sum: 'amount_cents' });
      expect(Number(sum)).to.equal(0);
      const closing = await db()('account_closings').where({ account_id: accountId }).whereNotNull('closed_at').select('refund_due_cents');
      expect(closing).to.deep.equal([{ refund_due_cents: String(balanceBefore) }]);
      expect(await auditCount(accountId, 'account.closed')).to.equal(1);

      // Kept: the invoice, the ledger, the mailing's amount and history. Erased: the developer's data, the endpoint's address; keys revoked.
      expect((await db()('topups').where({ id: topUp.id }).first('invoice_id', 'amount_cents')).invoice_id).to.equal(topUp.invoice_id);
      expect(await db()('shipment_events').where({ shipment_id: mailingId }).pluck('status')).to.include('delivered');
      // The mailing's personal data erased (its recipient, its letter, its proofs' bytes), its amount and history kept.
      const erased = await db()('shipments').where({ id: mailingId }).first('erased_at', 'recipient', 'document', 'amount_cents');
      expect(erased.erased_at).to.be.instanceOf(Date);
      expect(JSON.stringify(erased.recipient)).to.not.include(recipient.lines[0]);
      expect(JSON.stringify(erased.document)).to.not.include('rendez-vous');
      expect(Number(erased.amount_cents)).to.be.greaterThan(0);
      const user = await db()('developer_users').where({ account_id: accountId }).first('email', 'password_hash');
      expect(user.email).to.match(/^erased-[0-9a-f-]+@erased\.invalid$/);
      expect(user.password_hash).to.equal('!erased');
      expect(await db()('developer_users').where({ email }).first('id')).to.equal(undefined);
      expect((await db()('webhook_endpoints').where({ id: endpointId }).first('url')).url).to.equal('https://erased.invalid/');
      const revoked = await eventually(
        () => call('GET', '/v1/mailings?limit=1', { key: liveKey }),
        (r) => r.status === 401,
      );
      expect(revoked.body.error.code).to.equal('revoked_api_key');
      // The session is gone: the space asks to sign in, and the old password opens nothing.
      await page.goto(`${dash.base}/donnees`);
      expect(new URL(page.url()).pathname).to.equal('/dashboard/connexion');
      // The owner is told (from the worker's outbox row: sent by any process's sweep once it is due).
      await eventually(
        async () => inboxFor(email, /Votre compte est clôturé|compte est clôturé/).length,
        (n) => n > 0,
        60_000,
        500,
      );
      expect(inboxFor(email, /La clôture du compte est confirmée/)).to.have.length(0); // taken once by waitForMail above
    });
  });

  it('cancel during the grace period: keys and webhooks work again, and the schedule closes nothing', async () => {
    await dash.withPage(async (page) => {
      const { email, accountId } = await dash.signedInDeveloper(page);
      const { liveKey, endpointId } = await liveSetup(accountId, 1000);
      await page.goto(`${dash.base}/donnees`);
      expect(await dash.submit(page, { closing_password: PASSWORD }, '#closing-form button')).to.equal(200);
      const link = await dash.waitForMail(email, /http:\/\/\S+\/dashboard\/cloture\/confirmer\?token=\S+/);
      expect((await fetch(link)).status).to.equal(200);
      expect((await fetch(link)).status).to.equal(400);
      expect(
        (
          await eventually(
            () => call('GET', '/v1/mailings?limit=1', { key: liveKey }),
            (r) => r.status === 403,
          )
        ).status,
      ).to.equal(403);

      // While closing, no endpoint is added nor enabled again.
      const refusedCode = (promise: Promise<unknown>) =>
        promise.then(
          () => 'accepted',
          (error: { code?: string }) => error.code,
        );
      expect(await refusedCode(createWebhookEndpoint(db(), stack().config, { accountId, url: receiver.url, env: 'live', events: [] }))).to.equal(
        'account_closing',
      );
      expect(await refusedCode(setWebhookEndpointEnabled(db(), accountId, endpointId, true))).to.equal('account_closing');

      await page.goto(`${dash.base}/donnees`);
      expect(await page.$eval('#closing-state', (p) => p.textContent!)).to.include('confirmée');
      expect(await dash.submit(page, {}, '#closing-cancel-form button')).to.equal(200);
      expect(await page.$eval('[role=status]', (p) => p.textContent!)).to.include('annulée');
      expect(
        (
          await eventually(
            () => call('GET', '/v1/mailings?limit=1', { key: liveKey }),
            (r) => r.status === 200,
          )
        ).status,
      ).to.equal(200);
      expect((await db()('webhook_endpoints').where({ id: endpointId }).first('disabled_at')).disabled_at).to.equal(null);
      await sleep(GRACE_MS);
      await runClosingSchedule();
      expect(await db()('accounts').where({ id: accountId }).first('closure', 'balance_cents')).to.deep.equal({ closure: null, balance_cents: '1000' });
      expect(await auditCount(accountId, 'account.closing_canceled')).to.equal(1);
      expect((await postSimpleLetter(apiUrl(), liveKey)).length).to.equal(36);
    });
  });

  it('a closing waits for the mailings in flight: closed once the last one has reached its end, then erased', async () => {
    const account = await createAccount({ balanceCents: 5000 });
    const created = await call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'registered', letter: freeLetter, sender, recipient } });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id as string;
    await startedMailingWorkflow(id);
    // A sandbox mailing stays paid until it is advanced: the closing cannot end under it.
    const closing = await admin(['account', 'close', '--account', account.id, '--now']);
    expect(closing.json).to.deep.include({ accountId: account.id, closure: 'closing', mailingsInFlight: 1 });
    await runClosingSchedule();
    expect((await db()('accounts').where({ id: account.id }).first('closure')).closure).to.equal('closing');
    expect(await db()('ledger_entries').where({ account_id: account.id, kind: 'closing_refund' }).count({ n: '*' })).to.deep.equal([{ n: '0' }]);
    // Its key is refused now; the advance goes through the same domain function as POST /v1/test/mailings/{id}/advance.
    const { config, temporal } = stack();
    const ownRow = async (mailingId: string) => (await findMailingRow(db(), mailingId))!;
    await advanceMailing(domainDeps(db(), config, temporal.client), { mode: 'test' }, ownRow, id, { step: 4 });
    await (await startedMailingWorkflow(id)).result();
    await runClosingSchedule();
    expect(await db()('accounts').where({ id: account.id }).first('closure', 'balance_cents')).to.deep.equal({ closure: 'closed', balance_cents: '0' });
    expect(await db()('ledger_entries').where({ account_id: account.id, kind: 'closing_refund' }).pluck('amount_cents')).to.deep.equal(['-5000']);
    expect((await db()('shipments').where({ id }).first('erased_at')).erased_at).to.be.instanceOf(Date);
  });

  it('admin account close [--now] and close-cancel: an operator’s closing, at the customer’s written request', async () => {
    const account = await createAccount({ balanceCents: 1234 });
    const cancelNothing = await admin(['account', 'close-cancel', '--account', account.id]);
    expect(cancelNothing).to.deep.include({ code: 2 });
    expect(cancelNothing.json.error.code).to.equal('not_closing');

    const closing = await admin(['account', 'close', '--account', account.id]);
    expect(closing.code, JSON.stringify(closing.json)).to.equal(0);
    expect(closing.json).to.include({ accountId: account.id, closure: 'closing' });
    expect(Date.parse(closing.json.closesAt)).to.be.greaterThan(Date.now() + 86_400_000);
    expect(
      (
        await eventually(
          () => call('GET', '/v1/mailings?limit=1', { key: account.liveKey }),
          (r) => r.status === 403,
        )
      ).body.error.code,
    ).to.equal('account_suspended');
    expect((await admin(['account', 'close-cancel', '--account', account.id])).json).to.deep.equal({ accountId: account.id, closure: null });
    expect(
      (
        await eventually(
          () => call('GET', '/v1/mailings?limit=1', { key: account.liveKey }),
          (r) => r.status === 200,
        )
      ).status,
    ).to.equal(200);

    const now = await admin(['account', 'close', '--account', account.id, '--now']);
    expect(now.code, JSON.stringify(now.json)).to.equal(0);
    expect(now.json).to.deep.include({ accountId: account.id, closure: 'closed', refundDueCents: 1234 });
    expect(
      (
        await eventually(
          () => call('GET', '/v1/mailings?limit=1', { key: account.testKey }),
          (r) => r.status === 401,
        )
      ).body.error.code,
    ).to.equal('revoked_api_key');
    expect(await db()('ledger_entries').where({ account_id: account.id, kind: 'closing_refund' }).pluck('amount_cents')).to.deep.equal(['-1234']);
    expect((await admin(['account', 'close', '--account', account.id, '--now'])).json).to.deep.equal({ accountId: account.id, closure: 'closed' });
    expect(await db()('ledger_entries').where({ account_id: account.id, kind: 'closing_refund' }).count({ n: '*' })).to.deep.equal([{ n: '1' }]);
  });

  /**
   * An account holding `count` final mailings: one made through the API and advanced to
   * `delivered` (its proofs), and copies of it, canceled (final, no workflow behind them).
   */
  async function accountWithFinalMailings(count: number, balanceCents: number): Promise<{ id: string; mailingIds: string[] }> {
    const account = await createAccount({ balanceCents });
    const created = await call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'registered', letter: freeLetter, sender, recipient } });
    expect(created.status, created.text).to.equal(201);
    const advanced = await call('POST', `/v1/test/mailings/${created.body.id}/advance`, { key: account.testKey, body: { step: 4 } });
    expect(advanced.body.status).to.equal('delivered');
    await seedMailings(db(), created.body.id, count - 1);
    await db()('shipments').where({ account_id: account.id }).whereNot({ id: created.body.id }).update({ status: 'canceled' });
    return { id: account.id, mailingIds: await db()('shipments').where({ account_id: account.id }).pluck('id') };
  }

  /** Exactly once, for a closed account: one refund, the ledger summing to the balance, each key revoked once, each mailing erased once, one close. */
  async function expectClosedOnce(accountId: string, mailingIds: string[], refundCents: number): Promise<void> {
    expect(await db()('accounts').where({ id: accountId }).first('closure', 'balance_cents')).to.deep.equal({ closure: 'closed', balance_cents: '0' });
    expect(await db()('ledger_entries').where({ account_id: accountId, kind: 'closing_refund' }).pluck('amount_cents')).to.deep.equal([String(-refundCents)]);
    const [{ sum }] = await db()('ledger_entries').where({ account_id: accountId }).sum({ sum: 'amount_cents' });
    expect(Number(sum)).to.equal(0);
    expect(await auditCount(accountId, 'account.closed')).to.equal(1);
    expect(await auditCount(accountId, 'key.revoked')).to.equal(2);
    expect(await auditCount(accountId, 'mailing.erased')).to.equal(mailingIds.length);
    expect(await db()('shipments').where({ account_id: accountId }).whereNull('erased_at').count({ n: '*' })).to.deep.equal([{ n: '0' }]);
    const closings = await db()('account_closings').where({ account_id: accountId }).whereNotNull('closed_at').select('refund_due_cents', 'erased');
    expect(closings).to.have.length(1);
    expect(closings[0].refund_due_cents).to.equal(String(refundCents));
    expect(closings[0].erased).to.deep.include({ keysRevoked: 2, mailings: mailingIds.length });
  }

  it('five closers at once: the close is a sequence of short steps, each done once (one refund, one close, each mailing erased once)', async () => {
    const { id, mailingIds } = await accountWithFinalMailings(60, 4321);
    await closeByOperator(db(), stack().config, id, { now: true, actor: { kind: 'operator', name: 'test' } });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => closeAccount(db(), stack().config.secretKey, id)));
    // Each closer that found the close under way answers it closed, with the same figures; one that
    // came after the end (it waited for a connection of the pool) finds nothing to do.
    const closed = outcomes.filter((outcome) => outcome.kind === 'closed');
    expect(closed.length).to.be.at.least(1);
    for (const outcome of closed) expect(outcome).to.deep.include({ accountId: id, refundDueCents: 4321 });
    for (const outcome of outcomes.filter((outcome) => outcome.kind !== 'closed')) expect(outcome.kind).to.equal('none');
    for (const outcome of closed) expect(outcome, 'the same answer').to.deep.equal(closed[0]);
    await expectClosedOnce(id, mailingIds, 4321);
    // Closed: another run finds nothing to do.
    expect(await closeAccount(db(), stack().config.secretKey, id, { force: true })).to.deep.equal({ kind: 'none', accountId: id });
  });

  it('a close interrupted halfway (its process killed) cannot be canceled any more and is finished by the next run of the schedule', async () => {
    const { id, mailingIds } = await accountWithFinalMailings(1500, 2500);
    await closeByOperator(db(), stack().config, id, { now: true, actor: { kind: 'operator', name: 'test' } });
    const erasedCount = async () => Number((await db()('shipments').where({ account_id: id }).whereNotNull('erased_at').count({ n: '*' }))[0]!.n);
    const closer = track(spawn(process.execPath, [join(distRoot, 'scripts', 'admin.js'), 'account', 'close', '--account', id, '--now'], { stdio: 'ignore' }));
    await eventually(erasedCount, (n) => n > 0, 60_000, 10);
    await killAbruptly(closer);
    const erasedBefore = await erasedCount();
    expect(erasedBefore, 'killed while it erased the mailings').to.be.within(1, mailingIds.length - 1);
    // Its first step is committed: the refund once, the keys revoked; the account not closed yet, and past canceling.
    expect(await db()('ledger_entries').where({ account_id: id, kind: 'closing_refund' }).pluck('amount_cents')).to.deep.equal(['-2500']);
    expect((await db()('accounts').where({ id }).first('closure')).closure).to.equal('closing');
    expect(await cancelClosing(db(), id, { kind: 'operator', name: 'test' })).to.equal('none');
    await runClosingSchedule();
    await expectClosedOnce(id, mailingIds, 2500);
  });
});
