import { expect } from 'chai';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'puppeteer-core';
import { WorkflowFailedError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import proto from '@temporalio/proto';
import { SCOPES } from '../../domain/access/scopes.js';
import { DELIVERY_RETENTION_DAYS } from '../../domain/webhooks/deliveries.js';
import { MAX_WEBHOOK_ENDPOINTS } from '../../domain/webhooks/endpoints.js';
import { decrypt } from '../../lib/crypto.js';
import { deliveryWorkflowId, WEBHOOK_CANCELED } from '../../workflows/contract.js';
import { call, createKey } from '../support/api.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { stack } from '../support/stack.js';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver.js';

/** What a customer's receiver does (docs/webhooks.md): a fresh `t`, and any `v1` matching the secret. */
function signatures(received: ReceivedWebhook): { t: string; v1: string[] } {
  const parts = received.headers['service-signature']!.split(',').map((part) => part.split('='));
  return { t: parts.find(([name]) => name === 't')![1]!, v1: parts.filter(([name]) => name === 'v1').map(([, value]) => value!) };
}
function verifies(received: ReceivedWebhook, secret: string): boolean {
  const { t, v1 } = signatures(received);
  const expected = createHmac('sha256', secret).update(`${t}.`).update(received.raw).digest();
  const fresh = Math.abs(Date.now() / 1000 - Number(t)) <= 300;
  return fresh && v1.some((given) => Buffer.from(given, 'hex').length === expected.length && timingSafeEqual(Buffer.from(given, 'hex'), expected));
}

describe('developer space: webhooks (browser, real receivers)', function () {
  this.timeout(180_000);
  let dashboard: Dashboard;
  let base: string;
  let receiver: WebhookReceiver;

  before(async () => {
    dashboard = await startDashboard();
    ({ base } = dashboard);
  });
  after(() => dashboard?.close());
  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterEach(() => receiver.stop());

  const db = () => stack().db;
  const text = (page: Page, selector: string): Promise<string> => page.$eval(selector, (e) => e.textContent!.trim());
  /** Clicks and answers the status of the page it leads to. */
  async function click(page: Page, selector: string): Promise<number> {
    const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
    return response!.status();
  }
  const rowOf = (endpointId: string): string => `tr[data-endpoint-id="${endpointId}"]`;
  const createForm = 'form[action="/dashboard/webhooks"] button[type=submit]';

  /** Declares an endpoint through the form: its id and the secret shown (or the refusal's status). */
  async function declare(
    page: Page,
    url: string,
    options: { env?: 'test' | 'live'; events?: string[] } = {},
  ): Promise<{ status: number; id?: string; secret?: string }> {
    await page.goto(`${base}/webhooks`);
    await page.$eval('#url', (input, v) => ((input as unknown as { value: string }).value = v), url);
    await page.click(`input[name=env][value=${options.env ?? 'test'}]`);
    for (const type of options.events ?? []) await page.click(`input[name=events][value="${type}"]`);
    const status = await click(page, createForm);
    if (status !== 200 || !(await page.$('#webhook-secret'))) return { status };
    return { status, id: new URL(page.url()).searchParams.get('adresse')!, secret: await text(page, '#webhook-secret') };
  }

  /** Reloads a delivery's page until its state is `status`. */
  async function deliveryPageWhen(page: Page, deliveryId: string, status: string): Promise<void> {
    for (let i = 0; i < 100; i++) {
      await page.goto(`${base}/webhooks/livraisons/${deliveryId}`);
      if ((await page.$eval('#status', (e) => e.getAttribute('data-status'))) === status) return;
      await sleep(200);
    }
    throw new Error(`delivery ${deliveryId} never ${status}: ${await text(page, '#status')}`);
  }

  it('declares an endpoint (secret shown once), sends it a signed test event, shows the delivery and its payload; a 6th endpoint and bad input are refused in French', async () => {
    await dashboard.withPage(async (page, context) => {
      await dashboard.signedInDeveloper(page);
      await page.goto(`${base}/webhooks`);
      expect(await dashboard.heading(page)).to.equal('Webhooks');
      expect(await page.$$eval('header nav a', (links) => links.map((a) => a.textContent))).to.include('Webhooks');

      const { status, id, secret } = await declare(page, receiver.url);
      expect(status).to.equal(200);
      expect(secret).to.match(/^whsec_[0-9A-Za-z]{32}$/);
      await context.overridePermissions(new URL(base).origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
      await page.click('button[data-copy=webhook-secret]');
      await page.waitForFunction("document.querySelector('button[data-copy=webhook-secret]').textContent === 'Copié'", { timeout: 5000 });
      expect(await page.evaluate('navigator.clipboard.readText()')).to.equal(secret);
      // Shown once; stored encrypted.
      await page.reload();
      expect(await page.$('#webhook-secret')).to.equal(null);
      const row = await db()('webhook_endpoints').where({ id }).first();
      expect(row.secret_sealed).to.not.include(secret!.slice(6));
      expect(
        await page.$eval(rowOf(id!), (tr) =>
          Array.from(tr.querySelectorAll('td'), (td) => (td as { textContent: string | null }).textContent!.trim()).slice(0, 4),
        ),
      ).to.deep.equal([receiver.url, 'test', 'tous', 'active']);

      // "Send a test event": a signed ping, delivered like any other event.
      expect(await click(page, `${rowOf(id!)} form[action$="/essai"] button`)).to.equal(200);
      const [ping] = await receiver.until((r) => r.length >= 1);
      expect(ping!.headers['service-event']).to.equal('ping');
      expect(ping!.headers['user-agent']).to.match(/^Service-Webhooks\//);
      expect(signatures(ping!).v1).to.have.length(1);
      expect(verifies(ping!, secret!)).to.equal(true);
      expect(verifies(ping!, 'whsec_another')).to.equal(false);
      expect(ping!.body).to.deep.include({ type: 'ping', livemode: false, data: { endpoint: { id, url: receiver.url, events: [] } } });

      // The delivery: its page, then the log.
      const deliveryId = ping!.headers['service-delivery']!;
      const link = await page.$eval('p.notice a', (a) => a.getAttribute('href'));
      expect(link).to.equal(`/dashboard/webhooks/livraisons/${deliveryId}`);
      await deliveryPageWhen(page, deliveryId, 'delivered');
      expect(await text(page, '#delivery-id')).to.equal(deliveryId);
      expect(await text(page, '#event-id')).to.equal(ping!.body.id);
      expect(await text(page, '#event-type')).to.equal('ping');
      expect(await text(page, '#attempts')).to.equal('1');
      expect(await text(page, '#http-status')).to.equal('200');
      expect(await text(page, '#status')).to.equal('livrée');
      expect(JSON.parse(await text(page, '#payload'))).to.deep.equal(ping!.body);
      await page.goto(`${base}/webhooks/livraisons`);
      const logged = await page.$eval(`tr[data-delivery-id="${deliveryId}"]`, (tr) => ({
        event: tr.getAttribute('data-event-id'),
        status: tr.getAttribute('data-status'),
        cells: Array.from(tr.querySelectorAll('td'), (td) => (td as { textContent: string | null }).textContent!.trim()),
      }));
      expect(logged.event).to.equal(ping!.body.id);
      expect(logged.status).to.equal('delivered');
      expect(logged.cells[1]).to.include('ping');
      expect(logged.cells.slice(3, 7)).to.deep.equal(['livrée', '1', '200', '—']);

      // Refusals: a clear French message on the page, a 4xx, the input given back.
      expect((await declare(page, 'http://example.fr/hooks')).status).to.equal(400);
      expect(await dashboard.alert(page)).to.include('https://');
      expect(await page.$eval('#url', (i) => (i as unknown as { value: string }).value)).to.equal('http://example.fr/hooks');
      await page.goto(`${base}/webhooks`);
      await page.$eval('#url', (input) => ((input as unknown as { value: string }).value = 'https://exemple.fr/h'));
      await page.$eval('input[name=env][value=test]', (input) => ((input as unknown as { value: string }).value = 'staging'));
      expect(await click(page, createForm)).to.equal(400);
      expect(await dashboard.alert(page)).to.include('environnement');

      // Up to 5 endpoints: one of them live with a filter.
      const live = await declare(page, receiver.url, { env: 'live', events: ['mailing.posted', 'mailing.delivered'] });
      expect(live.status).to.equal(200);
      expect(await page.$eval(`${rowOf(live.id!)} td:nth-child(3)`, (td) => (td as { textContent: string | null }).textContent!.trim())).to.equal(
        'mailing.posted, mailing.delivered',
      );
      for (let n = 3; n <= MAX_WEBHOOK_ENDPOINTS; n++) expect((await declare(page, `${receiver.url}?n=${n}`)).status).to.equal(200);
      const sixth = await declare(page, `${receiver.url}?n=6`);
      expect(sixth.status).to.equal(409);
      expect(await dashboard.alert(page)).to.include(`${MAX_WEBHOOK_ENDPOINTS} adresses`);
      expect(await page.$$(`tbody tr[data-endpoint-id]`)).to.have.length(MAX_WEBHOOK_ENDPOINTS);
    });
  });

  it('the home page leads to /docs and a quickstart whose calls work as shown; the webhooks page is usable 390 px wide', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      const testKey = await page.$eval('#new-key', (e) => e.textContent!.trim());
      expect(await page.$eval('#docs-link', (a) => a.getAttribute('href'))).to.equal('/docs');
      // The quickstart's mailing, as printed, with the key put in: a 201, then an advance.
      const shown = await page.$eval('#curl-mailing', (e) => e.textContent!);
      const body = JSON.parse(/-d '([\s\S]*)'$/.exec(shown.trim())![1]!);
      const created = await call('POST', '/v1/mailings', { key: testKey, body });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const advance = await page.$eval('#curl-advance', (e) => e.textContent!);
      const path = new URL(/curl -X POST (\S+)/.exec(advance)![1]!).pathname.replace('ID', created.body.id);
      expect((await call('POST', path, { key: testKey })).body.status).to.equal('printed');

      await declare(page, receiver.url);
      await page.setViewport({ width: 390, height: 844 });
      await page.goto(`${base}/webhooks`);
      expect(await page.$eval('a[href="/docs#section/Webhooks"]', (a) => a.textContent)).to.equal('documentation des webhooks');
      // No sideways scroll of the page itself: wide tables scroll within themselves.
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).to.equal(true);
      // Every button of the endpoint's row can be brought into view and clicked.
      const reachable = (await page.evaluate(`[...document.querySelectorAll('tr[data-endpoint-id] button')].map((b) => {
        b.scrollIntoView({ block: 'center', inline: 'center' });
        const r = b.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth && (at === b || b.contains(at));
      })`)) as boolean[];
      expect(reachable.length).to.be.above(2);
      expect(reachable.every(Boolean), JSON.stringify(reachable)).to.equal(true);
    });
  });

  it('shows a failing receiver’s attempts, last status and error; "resend" makes a new delivery of the same event', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      const { id, secret } = await declare(page, receiver.url);
      receiver.respond = () => ({ status: 500 });
      await click(page, `${rowOf(id!)} form[action$="/essai"] button`);
      const deliveryId = new URL(page.url()).searchParams.get('essai')!;
      // 8 attempts (the suite's retry delays are 300 ms), then abandoned.
      await deliveryPageWhen(page, deliveryId, 'abandoned');
      expect(await text(page, '#status')).to.equal('abandonnée');
      expect(await text(page, '#attempts')).to.equal('8');
      expect(await text(page, '#http-status')).to.equal('500');
      expect(await text(page, '#last-error')).to.equal('HTTP 500');
      expect(await page.$$('#attempt-times li')).to.have.length(8);
      expect(receiver.received).to.have.length(8);
      const eventId = receiver.received[0]!.body.id as string;
      await page.goto(`${base}/webhooks/livraisons?adresse=${id}`);
      expect(
        await page.$eval(`tr[data-delivery-id="${deliveryId}"]`, (tr) =>
          Array.from(tr.querySelectorAll('td'), (td) => (td as { textContent: string | null }).textContent!.trim()).slice(3, 7),
        ),
      ).to.deep.equal(['abandonnée', '8', '500', 'HTTP 500']);

      // Resend, now that the receiver works: a new delivery id, the same event.
      receiver.respond = () => ({ status: 200 });
      await page.goto(`${base}/webhooks/livraisons/${deliveryId}`);
      expect(await click(page, 'form[action$="/renvoyer"] button')).to.equal(200);
      const resentId = await text(page, '#delivery-id');
      expect(resentId).to.not.equal(deliveryId);
      expect(await text(page, '#event-id')).to.equal(eventId);
      const [resent] = (await receiver.until((r) => r.length >= 9)).slice(8);
      expect(resent!.headers['service-delivery']).to.equal(resentId);
      expect(resent!.body.id).to.equal(eventId);
      expect(resent!.raw).to.equal(receiver.received[0]!.raw);
      expect(verifies(resent!, secret!)).to.equal(true);
      await deliveryPageWhen(page, resentId, 'delivered');
      expect(await page.$eval('dd a', (a) => a.getAttribute('href'))).to.equal(`/dashboard/webhooks/livraisons/${deliveryId}`);
      await page.goto(`${base}/webhooks/livraisons`);
      expect(await page.$$eval('tr[data-delivery-id]', (trs) => trs.map((tr) => tr.getAttribute('data-delivery-id')))).to.deep.equal([resentId, deliveryId]);
    });
  });

  it('rotates the secret: the new one is shown once, and for 24 h each request is signed with both (v1=<new>,v1=<old>)', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      const { id, secret: oldSecret } = await declare(page, receiver.url);
      await page.goto(`${base}/webhooks`);
      expect(await click(page, `${rowOf(id!)} form[action$="/secret"] button`)).to.equal(200);
      const newSecret = await text(page, '#webhook-secret');
      expect(newSecret)
        .to.match(/^whsec_/)
        .and.not.equal(oldSecret);
      expect(await text(page, '.secret')).to.include('L’ancien secret signe encore jusqu’au');
      const row = await db()('webhook_endpoints').where({ id }).first();
      expect(decrypt(row.secret_sealed, stack().config.secretKey)).to.equal(newSecret);
      expect(decrypt(row.previous_secret_sealed, stack().config.secretKey)).to.equal(oldSecret);
      const overlapHours = (row.previous_secret_expires_at.getTime() - Date.now()) / 3600_000;
      expect(overlapHours).to.be.within(23.9, 24);
      await page.reload();
      expect(await page.$('#webhook-secret')).to.equal(null);
      expect(await text(page, `${rowOf(id!)} td:nth-child(5)`)).to.include('ancien secret valable jusqu’au');

      await click(page, `${rowOf(id!)} form[action$="/essai"] button`);
      const [during] = await receiver.until((r) => r.length >= 1);
      const { t, v1 } = signatures(during!);
      expect(during!.headers['service-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(v1[0]).to.equal(createHmac('sha256', newSecret).update(`${t}.${during!.raw}`).digest('hex'));
      expect(v1[1]).to.equal(createHmac('sha256', oldSecret!).update(`${t}.${during!.raw}`).digest('hex'));
      // A receiver still on the old secret and one already on the new one both accept it.
      expect(verifies(during!, oldSecret!)).to.equal(true);
      expect(verifies(during!, newSecret)).to.equal(true);

      // Once the overlap is over (moved into the past here), only the new secret signs.
      await db()('webhook_endpoints')
        .where({ id })
        .update({ previous_secret_expires_at: new Date(Date.now() - 1000) });
      await page.goto(`${base}/webhooks`);
      await click(page, `${rowOf(id!)} form[action$="/essai"] button`);
      const [, after] = await receiver.until((r) => r.length >= 2);
      expect(signatures(after!).v1).to.have.length(1);
      expect(verifies(after!, newSecret)).to.equal(true);
      expect(verifies(after!, oldSecret!)).to.equal(false);
    });
  });

  it('a disabled endpoint receives nothing more (its delivery under way ends canceled, not as a success); re-enabled it receives again; deleted, its history stays', async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const testKey = await createKey(accountId, 'test', [...SCOPES]);
      const { id } = await declare(page, receiver.url);
      receiver.respond = () => ({ status: 503 });
      await click(page, `${rowOf(id!)} form[action$="/essai"] button`);
      const deliveryId = new URL(page.url()).searchParams.get('essai')!;
      await receiver.until((r) => r.length >= 2);

      expect(await click(page, `${rowOf(id!)} form[action$="/desactiver"] button`)).to.equal(200);
      expect(await text(page, `${rowOf(id!)} td.state`)).to.match(/^désactivée le /);
      expect(await page.$(`${rowOf(id!)} form[action$="/essai"]`)).to.equal(null);
      // The delivery's workflow ends at its next attempt, failed, without sending.
      const failure = await stack()
        .temporal.client.workflow.getHandle(deliveryWorkflowId(deliveryId))
        .result()
        .then(
          () => expect.fail('a canceled delivery must not end as a success'),
          (error: unknown) => error,
        );
      expect(failure).to.be.instanceOf(WorkflowFailedError);
      expect(((failure as WorkflowFailedError).cause as ApplicationFailure).type).to.equal(WEBHOOK_CANCELED);
      const sent = receiver.received.length;
      expect(sent).to.be.below(8);
      await deliveryPageWhen(page, deliveryId, 'canceled');
      expect(await text(page, '#status')).to.equal('annulée');
      expect(await text(page, '#last-error')).to.equal('endpoint disabled');
      expect(await page.$('form[action$="/renvoyer"]')).to.equal(null);
      if (process.env.RECORD_HISTORIES) {
        // Fixture capture for test/fixtures/histories (docs/workflow-versioning.md).
        const history = await stack().temporal.client.workflow.getHandle(deliveryWorkflowId(deliveryId)).fetchHistory();
        mkdirSync(process.env.RECORD_HISTORIES, { recursive: true });
        writeFileSync(
          join(process.env.RECORD_HISTORIES, 'delivery-canceled-endpoint-disabled.binpb'),
          proto.temporal.api.history.v1.History.encode(history).finish(),
        );
      }

      // New events skip it: a test mailing's mailing.created is not sent.
      receiver.respond = () => ({ status: 200 });
      const created = await call('POST', '/v1/mailings', { key: testKey, body: { mode: 'simple', letter: freeLetter, sender, recipient } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      await sleep(1500);
      expect(receiver.received).to.have.length(sent);

      // Enabled again: events reach it (the canceled delivery stays canceled).
      await page.goto(`${base}/webhooks`);
      expect(await click(page, `${rowOf(id!)} form[action$="/reactiver"] button`)).to.equal(200);
      expect(await text(page, `${rowOf(id!)} td.state`)).to.equal('active');
      const advanced = await call('POST', `/v1/test/mailings/${created.body.id}/advance`, { key: testKey, body: {} });
      expect(advanced.status).to.equal(200);
      await receiver.until((r) => r.some((w) => w.body.type === 'mailing.printed'));

      // Deleted: gone from the list, nothing more sent, its deliveries still in the log.
      await page.goto(`${base}/webhooks/${id}/supprimer`);
      expect(await dashboard.heading(page)).to.equal('Supprimer une adresse');
      expect(await click(page, 'main form button')).to.equal(200);
      expect(await page.$(rowOf(id!))).to.equal(null);
      const deleted = await db()('webhook_endpoints').where({ id }).first();
      expect(deleted.deleted_at).to.be.instanceOf(Date);
      expect(deleted.secret_sealed).to.equal(null);
      const before = receiver.received.length;
      expect((await call('POST', `/v1/test/mailings/${created.body.id}/advance`, { key: testKey, body: {} })).status).to.equal(200);
      await sleep(1500);
      expect(receiver.received).to.have.length(before);
      await page.goto(`${base}/webhooks/livraisons`);
      const rows = await page.$$eval('tr[data-delivery-id]', (trs) => trs.map((tr) => tr.textContent!));
      expect(rows).to.have.length(2); // the canceled ping, mailing.printed
      expect(rows.every((r) => r.includes('(supprimée)'))).to.equal(true);
      await page.goto(`${base}/webhooks/livraisons/${deliveryId}`);
      expect(await page.$('form[action$="/renvoyer"]')).to.equal(null);
      // Deleted endpoints do not count towards the limit; their page is gone.
      expect((await page.goto(`${base}/webhooks/${id}/supprimer`))!.status()).to.equal(404);
    });
  });

  it(`shows ${DELIVERY_RETENTION_DAYS} days of history, purged after that by the webhook-history-purge workflow; pages through the log with a cursor`, async () => {
    await dashboard.withPage(async (page) => {
      const { accountId } = await dashboard.signedInDeveloper(page);
      const { id } = await declare(page, receiver.url);
      // 53 deliveries (more than a page of 50), one of them 31 days old.
      const events = Array.from({ length: 53 }, (_, i) => ({
        id: randomUUID(),
        account_id: accountId,
        type: 'ping',
        livemode: false,
        payload: { n: i },
        created_at: new Date(Date.now() - i * 60_000 - (i === 52 ? (DELIVERY_RETENTION_DAYS + 1) * 86_400_000 : 0)),
      }));
      await db()('webhook_events').insert(events);
      await db()('webhook_deliveries').insert(
        events.map((e) => ({
          id: randomUUID(),
          event_id: e.id,
          endpoint_id: id,
          account_id: accountId,
          status: 'delivered',
          attempts: 1,
          created_at: e.created_at,
        })),
      );
      const old = await db()('webhook_deliveries').where({ event_id: events[52]!.id }).first('id');

      await page.goto(`${base}/webhooks/livraisons`);
      const first = await page.$$eval('tr[data-delivery-id]', (trs) => trs.map((tr) => tr.getAttribute('data-delivery-id')));
      expect(first).to.have.length(50);
      expect(await click(page, '#next-page')).to.equal(200);
      const second = await page.$$eval('tr[data-delivery-id]', (trs) => trs.map((tr) => tr.getAttribute('data-delivery-id')));
      expect(second).to.have.length(2);
      expect(new Set([...first, ...second]).size).to.equal(52);
      expect([...first, ...second]).to.not.include(old.id);
      expect(await page.$('#next-page')).to.equal(null);
      expect((await page.goto(`${base}/webhooks/livraisons/${old.id}`))!.status()).to.equal(404);
      expect((await page.goto(`${base}/webhooks/livraisons?apres=nimportequoi`))!.status()).to.equal(400);
      expect(await dashboard.alert(page)).to.include('pagination');

      const { config, temporal } = stack();
      await temporal.client.workflow.execute('purgeWebhookDeliveries', { taskQueue: config.taskQueue, workflowId: `test-purge-${randomUUID()}` });
      expect(await db()('webhook_deliveries').where({ id: old.id }).first()).to.equal(undefined);
      expect(await db()('webhook_events').where({ id: events[52]!.id }).first()).to.equal(undefined);
      expect(await db()('webhook_deliveries').where({ endpoint_id: id }).count({ n: '*' })).to.deep.equal([{ n: '52' }]);
    });
  });

  it('refuses the webhooks forms without the session’s CSRF token (403, nothing changed) and another account’s endpoints (404)', async () => {
    await dashboard.withPage(async (page) => {
      await dashboard.signedInDeveloper(page);
      const { id } = await declare(page, receiver.url);
      const cookie = `svc_dashboard=${(await page.cookies()).find((c) => c.name === 'svc_dashboard')!.value}`;
      const csrf = await page.$eval('input[name=_csrf]', (i) => (i as unknown as { value: string }).value);
      const post = (path: string, body: string): Promise<Response> =>
        fetch(`${base}${path}`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie }, body });
      const before = await db()('webhook_endpoints').where({ id }).first();
      for (const path of ['/webhooks', `/webhooks/${id}/desactiver`, `/webhooks/${id}/secret`, `/webhooks/${id}/supprimer`, `/webhooks/${id}/essai`]) {
        expect((await post(path, `url=${encodeURIComponent(receiver.url)}&env=test`)).status, path).to.equal(403);
        expect((await post(path, `url=${encodeURIComponent(receiver.url)}&env=test&_csrf=wrong`)).status, path).to.equal(403);
      }
      expect(await db()('webhook_endpoints').where({ id }).first()).to.deep.equal(before);
      expect(await db()('webhook_endpoints').where({ account_id: before.account_id }).count({ n: '*' })).to.deep.equal([{ n: '1' }]);
      expect(receiver.received).to.have.length(0);
      // The right token works (the refusals were the token's).
      expect((await post(`/webhooks/${id}/desactiver`, `_csrf=${encodeURIComponent(csrf)}`)).status).to.equal(302);

      // Another developer cannot touch it.
      await dashboard.withPage(async (other) => {
        await dashboard.signedInDeveloper(other);
        await other.goto(`${base}/webhooks`);
        expect(await other.$(rowOf(id!))).to.equal(null);
        expect((await other.goto(`${base}/webhooks/${id}/supprimer`))!.status()).to.equal(404);
        const otherCsrf = await other.$eval('input[name=_csrf]', (i) => (i as unknown as { value: string }).value);
        const otherCookie = `svc_dashboard=${(await other.cookies()).find((c) => c.name === 'svc_dashboard')!.value}`;
        const refused = await fetch(`${base}/webhooks/${id}/reactiver`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: otherCookie },
          body: `_csrf=${encodeURIComponent(otherCsrf)}`,
        });
        expect(refused.status).to.equal(404);
        expect(await refused.text()).to.include('Introuvable');
      });
      expect((await db()('webhook_endpoints').where({ id }).first()).disabled_at).to.be.instanceOf(Date);
    });
  });
});
