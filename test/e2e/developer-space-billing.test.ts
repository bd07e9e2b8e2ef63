import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { balanceOf, call, createAccount, eventually, spawnApiProcess, type ApiProcess } from '../support/api.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';
import { spawnNode } from '../support/processes.js';
import { startApiServer } from '../../server/server.js';
import { domainDeps } from '../../temporal/domain-deps.js';
import { topUpWorkflowId } from '../../workflows/contract.js';
import { findTopUp, startTopUp, topUpPrice, type TopUpRecord } from '../../domain/billing/topups.js';
import { signStripePayload } from '../../lib/stripe.js';

/** A Stripe event about a top-up's Checkout session, as Stripe shapes it. */
function checkoutEvent(topUp: { id: string; sessionId: string }, type: string, paymentStatus: 'paid' | 'unpaid', id = `evt_${randomBytes(8).toString('hex')}`) {
  return {
    id,
    object: 'event',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object: { id: topUp.sessionId, object: 'checkout.session', client_reference_id: topUp.id, payment_status: paymentStatus, status: 'complete' } },
  };
}

/** POST /stripe/webhook, signed as Stripe signs (the local webhook secret) unless `signature` is given. */
async function deliver(event: unknown, options: { baseUrl?: string; signature?: string } = {}) {
  const payload = JSON.stringify(event);
  return call('POST', '/stripe/webhook', {
    baseUrl: options.baseUrl,
    rawBody: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': options.signature ?? signStripePayload(stack().config.stripe, payload) },
  });
}

async function newTopUp(accountId: string, amountCents: number, config = stack().config): Promise<{ id: string; sessionId: string }> {
  const { db, temporal } = stack();
  const started = await startTopUp(domainDeps(db, config, temporal.client), {
    accountId,
    amountCents,
    email: 'payer@example.fr',
    successUrl: 'http://localhost/ok',
    cancelUrl: 'http://localhost/ko',
  });
  return { id: started.topUpId, sessionId: started.sessionId };
}

const topUpCredits = (topUpId: string) =>
  stack()
    .db('ledger_entries')
    .where({ reference: `topup:${topUpId}` })
    .select('amount_cents');
const reload = async (id: string): Promise<TopUpRecord> => (await findTopUp(stack().db, id))!;
const settled = (id: string, status = 'paid', invoiced = true) =>
  eventually(
    () => reload(id),
    (t) => t.status === status && (!invoiced || t.invoiceId !== null),
    20_000,
    100,
  );

describe('developer space: balance, ledger, Stripe top-ups and invoices', function () {
  this.timeout(120_000);

  describe('in a browser', () => {
    let dash: Dashboard;
    before(async () => {
      dash = await startDashboard();
    });
    after(async () => {
      await dash?.close();
    });

    it('a top-up through the test payment page raises the balance by the amount and lists the invoice with its links', async () => {
      await dash.withPage(async (page) => {
        const { accountId } = await dash.signedInDeveloper(page);
        await page.goto(`${dash.base}/solde`);
        expect(await dash.heading(page)).to.equal('Solde et recharges');
        expect(await page.$eval('#balance', (b) => b.getAttribute('data-balance-cents'))).to.equal('0');
        expect(await page.$eval('#free-quota', (q) => q.textContent!.replace(/\s+/g, ' ').trim())).to.match(/0 \/ 500 appels/);
        // VAT shown next to each amount: 50 € HT + 10 € TVA = 60 € TTC.
        const form = await page.$eval('#topup-form', (f) => f.textContent!.replace(/\s+/g, ' '));
        expect(form).to.match(/50,00\s€ HT \+ 10,00\s€ TVA = 60,00\s€ TTC/);
        expect(form).to.match(/TVA française 20 %/);

        // 35 € typed: a step of 5 € inside the limits.
        await page.click('input[name=amountCents][value=other]');
        await page.type('input[name=otherEuros]', '35');
        const [toTestPage] = await Promise.all([page.waitForNavigation(), page.click('#topup-form button[type=submit]')]);
        expect(toTestPage!.status()).to.equal(200);
        expect(page.url()).to.match(/\/dashboard\/paiement-test\/cs_test_/);
        expect(await dash.heading(page)).to.equal('Paiement de test');
        expect(await page.$eval('[role=note]', (n) => n.textContent!)).to.match(/TEST/);
        expect(await page.$eval('#total', (t) => t.textContent!)).to.match(/42,00\s€/);

        const [back] = await Promise.all([page.waitForNavigation(), page.click('#pay')]);
        expect(back!.status()).to.equal(200);
        expect(page.url()).to.match(/\/dashboard\/solde\?paiement=(ok|credite)$/);
        // The page asks again by itself until the credit lands, then says so (no "paiement reçu" left).
        await page.waitForFunction("location.search === '?paiement=credite'", { timeout: 30_000 });
        expect(await page.$eval('[role=status]', (p) => p.textContent!)).to.include('Recharge créditée');
        expect(await page.content()).to.not.include('Paiement reçu');
        expect(await page.$eval('#balance', (b) => b.getAttribute('data-balance-cents'))).to.equal('3500');

        const row = await stack().db('topups').where({ account_id: accountId }).first('id');
        const topUp = await settled(row.id);
        expect(topUp).to.include({ status: 'paid', amountCents: 3500, vatCents: 700, totalCents: 4200 });
        expect(await balanceOf(accountId)).to.equal(3500);
        expect(await topUpCredits(topUp.id)).to.have.length(1);

        await page.goto(`${dash.base}/solde`);
        expect(await page.$eval('#balance', (b) => b.getAttribute('data-balance-cents'))).to.equal('3500');
        const invoice = await page.$eval(`tr[data-topup-id="${topUp.id}"]`, (tr) => ({
          status: tr.getAttribute('data-status'),
          hosted: (tr.querySelector('a.invoice-link') as unknown as { href: string } | null)?.href,
          pdf: (tr.querySelector('a.invoice-pdf') as unknown as { href: string } | null)?.href,
        }));
        expect(invoice.status).to.equal('paid');
        expect(invoice.hosted).to.match(new RegExp(`/dashboard/paiement-test/factures/${topUp.id}$`));
        expect(invoice.pdf).to.match(new RegExp(`/dashboard/paiement-test/factures/${topUp.id}/pdf$`));
        const ledger = await page.$$eval('#ledger tbody tr', (rows) => rows.map((r) => [r.getAttribute('data-kind'), r.getAttribute('data-amount-cents')]));
        expect(ledger).to.deep.equal([['topup', '3500']]);

        // The invoice's links work (the local stand-ins for Stripe's hosted page and PDF).
        const hosted = await page.goto(invoice.hosted!);
        expect(hosted!.status()).to.equal(200);
        expect(await page.$eval('main', (m) => m.textContent!)).to.match(/42,00\s€/);
        // Fetched with the page's session (the pages' CSP lets no script fetch).
        const cookie = (await page.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
        const response = await fetch(invoice.pdf!, { headers: { cookie } });
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.equal('application/pdf');
        expect(
          Buffer.from(await response.arrayBuffer())
            .subarray(0, 5)
            .toString(),
        ).to.equal('%PDF-');
      });
    });

    it('a failed payment changes nothing: no credit, no ledger row, the top-up marked failed', async () => {
      await dash.withPage(async (page) => {
        const { accountId } = await dash.signedInDeveloper(page);
        await page.goto(`${dash.base}/solde`);
        await page.click('input[name=amountCents][value="2000"]');
        await Promise.all([page.waitForNavigation(), page.click('#topup-form button[type=submit]')]);
        expect(await dash.heading(page)).to.equal('Paiement de test');
        await Promise.all([page.waitForNavigation(), page.click('#fail')]);
        expect(page.url()).to.match(/\?paiement=echec$/);
        expect(await dash.alert(page)).to.match(/échoué/);
        const row = await stack().db('topups').where({ account_id: accountId }).first('id');
        await settled(row.id, 'failed', false);
        // The workflow has ended: nothing more can happen to it.
        const topUp = await reload(row.id);
        await stack().temporal.client.workflow.getHandle(topUpWorkflowId(topUp.sessionId!)).result();
        expect(await balanceOf(accountId)).to.equal(0);
        expect(await stack().db('ledger_entries').where({ account_id: accountId })).to.have.length(0);
        await page.goto(`${dash.base}/solde`);
        expect(await page.$eval(`tr[data-topup-id="${row.id}"]`, (tr) => tr.getAttribute('data-status'))).to.equal('failed');
        expect(await page.$$('a.invoice-link')).to.have.length(0);
      });
    });

    it('refuses amounts outside the limits or off the 5 € steps, and sends nobody to pay', async () => {
      await dash.withPage(async (page) => {
        const { accountId } = await dash.signedInDeveloper(page);
        for (const euros of ['7', '12', '2005']) {
          await page.goto(`${dash.base}/solde`);
          await page.click('input[name=amountCents][value=other]');
          // The browser's own checks (min, max, step) are bypassed: the server decides.
          await page.$eval(
            'input[name=otherEuros]',
            (input, v) => {
              for (const name of ['min', 'max', 'step']) input.removeAttribute(name);
              (input as unknown as { value: string }).value = v;
            },
            euros,
          );
          const [response] = await Promise.all([page.waitForNavigation(), page.click('#topup-form button[type=submit]')]);
          expect(response!.status(), euros).to.equal(400);
          expect(await dash.alert(page)).to.match(/de 10,00\s€ à 2\s000,00\s€ HT, par pas de 5,00\s€/);
        }
        expect(await stack().db('topups').where({ account_id: accountId })).to.have.length(0);
      });
    });

    it('the ledger pages with an opaque cursor, each debit with what it paid for', async () => {
      const { db } = stack();
      await dash.withPage(async (page) => {
        const { accountId } = await dash.signedInDeveloper(page);
        const { topUp } = await import('../../domain/billing/ledger.js');
        const { debit } = await import('../../domain/billing/ledger.js');
        const { priceOf, priceTable } = await import('../../domain/billing/prices.js');
        for (let i = 1; i <= 22; i++) await topUp(db, accountId, i * 100, 'admin topup');
        await db.transaction((trx) => debit(trx, accountId, 'ai.letter', 'ref-42'));
        await page.goto(`${dash.base}/solde`);
        const first = await page.$$eval('#ledger tbody tr', (rows) => rows.map((r) => Number(r.getAttribute('data-amount-cents'))));
        expect(first).to.deep.equal([-priceOf('ai.letter'), ...Array.from({ length: 19 }, (_, i) => (22 - i) * 100)]);
        const paidFor = await page.$$eval('#ledger tbody tr:first-child td', (cells) => cells.map((td) => td.textContent!.trim()));
        expect(paidFor[1]).to.equal(priceTable.units.find((u) => u.unit === 'ai.letter')!.label);
        expect(paidFor[2]).to.equal('ref-42');
        const next = await page.$eval('#ledger-next', (a) => (a as unknown as { href: string }).href);
        await page.goto(next);
        const second = await page.$$eval('#ledger tbody tr', (rows) => rows.map((r) => Number(r.getAttribute('data-amount-cents'))));
        expect(second).to.deep.equal([300, 200, 100]);
        expect(await page.$('#ledger-next')).to.equal(null);
        // Another account's cursor (or a forged one) is not this ledger's: the first page, and a notice.
        await page.goto(`${dash.base}/solde?apres=forged`);
        expect(await dash.alert(page)).to.match(/plus valable/);
      });
    });
  });

  describe('POST /stripe/webhook', () => {
    it('a forged signature is refused with 400 and changes nothing', async () => {
      const account = await createAccount();
      const topUp = await newTopUp(account.id, 5000);
      const event = checkoutEvent(topUp, 'checkout.session.completed', 'paid');
      const payload = JSON.stringify(event);
      const forged = [
        // Signed with another secret.
        `t=${Math.floor(Date.now() / 1000)},v1=${randomBytes(32).toString('hex')}`,
        // A real signature of another body.
        signStripePayload(stack().config.stripe, payload.replace('"paid"', '"unpaid"')),
        // Signed, but 10 minutes old.
        'stale',
        '',
      ];
      for (const signature of forged) {
        const sent =
          signature === 'stale'
            ? await call('POST', '/stripe/webhook', {
                rawBody: payload,
                headers: { 'content-type': 'application/json', 'stripe-signature': staleSignature(payload) },
              })
            : await deliver(event, { signature });
        expect(sent.status, signature).to.equal(400);
        expect(sent.body.error.code).to.equal('invalid_request');
        expect(sent.body.error.message).to.match(/Stripe-Signature/);
      }
      await sleep(500);
      expect(await balanceOf(account.id)).to.equal(0);
      expect((await reload(topUp.id)).status).to.equal('pending');
      const started = await stack()
        .temporal.client.workflow.getHandle(topUpWorkflowId(topUp.sessionId))
        .describe()
        .then(
          () => true,
          () => false,
        );
      expect(started, 'no workflow was started').to.equal(false);
    });

    it('the same event replayed, and events out of order, credit exactly once', async () => {
      const account = await createAccount();
      const topUp = await newTopUp(account.id, 10_000);
      const succeeded = checkoutEvent(topUp, 'checkout.session.async_payment_succeeded', 'paid');
      const completed = checkoutEvent(topUp, 'checkout.session.completed', 'unpaid');
      // The outcome before the event that should precede it, each sent several times, at once.
      const sent = await Promise.all([deliver(succeeded), deliver(succeeded), deliver(completed), deliver(succeeded), deliver(completed)]);
      expect(sent.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200]);
      await settled(topUp.id);
      // Replayed after the workflow ended, and a contradictory failure afterwards: still one credit.
      await stack().temporal.client.workflow.getHandle(topUpWorkflowId(topUp.sessionId)).result();
      expect((await deliver(succeeded)).status).to.equal(200);
      expect((await deliver(checkoutEvent(topUp, 'checkout.session.async_payment_failed', 'unpaid'))).status).to.equal(200);
      await sleep(1500);
      expect(await topUpCredits(topUp.id)).to.deep.equal([{ amount_cents: '10000' }]);
      expect(await balanceOf(account.id)).to.equal(10_000);
      expect((await reload(topUp.id)).status).to.equal('paid');
    });

    it('acknowledges event types it does not act on, and sessions that are not top-ups', async () => {
      const other = await deliver({ id: 'evt_other', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } });
      expect(other.status).to.equal(200);
      expect(other.body).to.deep.equal({ received: true, handled: false });
      const foreign = await deliver(
        checkoutEvent({ id: '00000000-0000-4000-8000-000000000000', sessionId: 'cs_test_not_ours' }, 'checkout.session.completed', 'paid'),
      );
      expect(foreign.status).to.equal(200);
      expect(foreign.body).to.deep.equal({ received: true, handled: false });
    });

    it('the test payment pages do not exist when Stripe is configured (404, not even a sign-in redirect)', async () => {
      const { config, db, local, temporal } = stack();
      const real = await startApiServer(
        {
          config: { ...config, stripe: { mode: 'stripe', secretKey: 'sk_test_x', webhookSecret: 'whsec_x', mockUrl: undefined } },
          db,
          databaseUrl: local.databaseUrl,
          temporal: temporal.client,
        },
        0,
        '127.0.0.1',
      );
      try {
        for (const path of ['/dashboard/paiement-test/cs_test_1', '/dashboard/paiement-test/factures/00000000-0000-4000-8000-000000000000']) {
          const response = await fetch(real.url + path, { redirect: 'manual' });
          expect(response.status, path).to.equal(404);
        }
        // While the local server has them (behind sign-in).
        const local = await fetch(stack().api.url + '/dashboard/paiement-test/cs_test_1', { redirect: 'manual' });
        expect(local.status).to.equal(302);
      } finally {
        await real.close();
      }
    });
  });

  describe('a worker killed mid-top-up', () => {
    const QUEUE = 'topup-durability';
    let api: ApiProcess;
    let worker: ChildProcess | undefined;
    let blackHole: Server;
    const sockets = new Set<Socket>();

    before(async () => {
      api = await spawnApiProcess({ TEMPORAL_TASK_QUEUE: QUEUE });
      // A "Stripe" that accepts connections and never answers: the invoice step hangs there.
      blackHole = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      worker?.kill('SIGKILL');
      await api?.stop();
      for (const socket of sockets) socket.destroy();
      blackHole?.close();
    });

    it('loses nothing and credits once: a new worker finishes the top-up', async () => {
      const account = await createAccount();
      const topUp = await newTopUp(account.id, 2500);
      const hangingStripe = `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}`;
      worker = spawnNode('worker', { TEMPORAL_TASK_QUEUE: QUEUE, STRIPE_MOCK_URL: hangingStripe, LOG_LEVEL: 'error' });
      const completed = checkoutEvent(topUp, 'checkout.session.completed', 'paid');
      expect((await deliver(completed, { baseUrl: api.url })).status).to.equal(200);
      // Credited, the invoice step under way (hanging on "Stripe"): the middle of the top-up.
      const midway = await eventually(
        () => reload(topUp.id),
        (t) => t.status === 'paid',
        30_000,
        100,
      );
      expect(midway.invoiceId).to.equal(null);
      await eventually(
        async () => sockets.size,
        (n) => n > 0,
        10_000,
        50,
      );
      worker.kill('SIGKILL');
      await once(worker, 'exit');
      // Stripe repeats the event while no worker runs: accepted, and nothing more.
      expect((await deliver(completed, { baseUrl: api.url })).status).to.equal(200);
      worker = spawnNode('worker', { TEMPORAL_TASK_QUEUE: QUEUE, LOG_LEVEL: 'error' });
      const done = await eventually(
        () => reload(topUp.id),
        (t) => t.invoiceId !== null,
        60_000,
        200,
      );
      expect(done.invoiceUrl).to.match(/\/dashboard\/paiement-test\/factures\//);
      expect(await stack().temporal.client.workflow.getHandle(topUpWorkflowId(topUp.sessionId)).result()).to.equal('paid');
      expect(await topUpCredits(topUp.id)).to.deep.equal([{ amount_cents: '2500' }]);
      expect(await balanceOf(account.id)).to.equal(2500);
      expect(topUpPrice(2500).totalCents).to.equal(3000);
    });
  });
});

/** A correct signature made 10 minutes ago: outside Stripe's 5-minute tolerance. */
function staleSignature(payload: string): string {
  const secret = stack().config.stripe.webhookSecret!;
  const t = Math.floor(Date.now() / 1000) - 600;
  // Stripe's scheme: v1 = HMAC-SHA256(secret, "<t>.<payload>").
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
}
