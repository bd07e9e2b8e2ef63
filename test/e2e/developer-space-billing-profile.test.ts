import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'puppeteer-core';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { stack } from '../support/stack.js';
import { eventually } from '../support/api.js';
import { createWorker, type RunnableWorker } from '../../worker/worker.js';
import { findBillingProfile } from '../../domain/billing/profiles.js';

/** One request the Stripe client made, as stripe-mock received it, with stripe-mock's answer. */
interface StripeRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  idempotencyKey: string | undefined;
  status: number;
}

/**
 * A recording proxy in front of the test stack's stripe-mock: the Stripe client of the worker below
 * talks to it, so the test reads exactly what was sent, and stripe-mock (which validates every
 * request against Stripe's OpenAPI document) still answers.
 */
async function stripeRecorder(target: string): Promise<{ url: string; requests: StripeRequest[]; close(): Promise<void> }> {
  const requests: StripeRequest[] = [];
  const read = async (req: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<
        string,
        string
      >;
      const answer = await fetch(target + req.url, { method: req.method, headers, body: body || undefined });
      const text = await answer.text();
      const url = new URL(req.url!, 'http://stripe');
      requests.push({
        method: req.method!,
        path: url.pathname,
        params: new URLSearchParams(req.method === 'GET' || req.method === 'DELETE' ? url.search : body),
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        status: answer.status,
      });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    })().catch((error: unknown) => {
      res.writeHead(502);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const QUEUE = 'billing-profile';
const FORM = '#billing-profile-form button[type=submit]';

/** A valid profile: SIREN 552 100 554, its SIRET and its VAT number (key 96), typed with spaces. */
const VALID = {
  legalName: 'Exemple Industries SAS',
  addressLine1: '12 rue des Lilas',
  addressLine2: 'Bâtiment B',
  postalCode: '69003',
  city: 'Lyon',
  siret: '552 100 554 00013',
  vatNumber: 'fr 96 552100554',
  email: 'compta@exemple.fr',
};

describe('developer space: the billing profile and the Stripe customer of the invoices', function () {
  this.timeout(120_000);
  let dash: Dashboard;
  let worker: RunnableWorker;
  let workerDone: Promise<void>;
  let stripe: Awaited<ReturnType<typeof stripeRecorder>>;

  before(async () => {
    const { config, workerDb, local } = stack();
    stripe = await stripeRecorder(config.stripe.mockUrl!);
    // A worker of this file's own task queue whose Stripe is the recorder; the space below runs its workflows there.
    worker = await createWorker({
      config: { ...config, taskQueue: QUEUE, stripe: { ...config.stripe, mockUrl: stripe.url } },
      db: workerDb,
      address: local.temporalAddress,
    });
    workerDone = worker.run();
    dash = await startDashboard((c) => ({ ...c, taskQueue: QUEUE }));
  });
  after(async () => {
    await dash?.close();
    worker?.shutdown();
    await workerDone?.catch(() => undefined);
    await stripe?.close();
  });

  const sent = (method: string, path: RegExp): StripeRequest[] => stripe.requests.filter((r) => r.method === method && path.test(r.path));
  const audit = (accountId: string) =>
    stack().db('audit_log').where({ account_id: accountId }).where('action', 'like', 'billing_profile.%').orderBy('created_at');
  const fieldErrors = (page: Page): Promise<Record<string, [string, string]>> =>
    page.$$eval('.field-error', (ps) =>
      Object.fromEntries(ps.map((p) => [p.id.replace('error-', ''), [p.getAttribute('data-problem'), p.textContent!.trim()]])),
    );

  /** The top-up form filled with 20 € and sent: the test payment page's session id. */
  async function topUp(page: Page): Promise<string> {
    await page.goto(`${dash.base}/solde`);
    await page.click('input[name=amountCents][value="2000"]');
    await Promise.all([page.waitForNavigation(), page.click('#topup-form button[type=submit]')]);
    expect(await dash.heading(page)).to.equal('Paiement de test');
    return decodeURIComponent(/paiement-test\/([^/?#]+)/.exec(page.url())![1]!);
  }

  /** The Checkout session creation the worker sent for a Checkout session id stripe-mock answered. */
  const checkoutCreations = (): StripeRequest[] => sent('POST', /^\/v1\/checkout\/sessions$/);

  it('saves a valid profile, makes the Stripe customer from it, and pays the next top-up as that customer', async () => {
    await dash.withPage(async (page) => {
      const { accountId, email } = await dash.signedInDeveloper(page);
      // Without a profile, the balance page invites to fill one; the menu leads to it.
      await page.goto(`${dash.base}/solde`);
      expect(await page.$eval('#billing-profile-invite a', (a) => a.getAttribute('href'))).to.equal('/dashboard/facturation');
      expect(await page.$$eval('header nav a', (as) => as.map((a) => a.textContent))).to.include('Facturation');

      // A top-up without a profile: as before, the email only, and still the seller's mentions.
      const before = checkoutCreations().length;
      await topUp(page);
      const anonymous = checkoutCreations()[before]!;
      expect(anonymous.status).to.equal(200);
      expect(anonymous.params.get('customer_email')).to.equal(email);
      expect(anonymous.params.has('customer')).to.equal(false);
      expect(anonymous.params.get('invoice_creation[invoice_data][footer]')).to.match(/L441-10/);

      await page.goto(`${dash.base}/facturation`);
      expect(await dash.heading(page)).to.equal('Profil de facturation');
      expect(await page.$eval('#profile-status', (p) => p.getAttribute('data-version'))).to.equal('0');
      const customersBefore = sent('POST', /^\/v1\/customers$/).length;
      expect(await dash.submit(page, VALID, FORM)).to.equal(200);
      expect(page.url()).to.match(/\/facturation\?enregistre=ok$/);
      expect(await page.$eval('[role=status]', (p) => p.textContent!)).to.match(/enregistré/);

      // Stored normalized; the customer recorded with the version Stripe has.
      const profile = (await findBillingProfile(stack().db, accountId))!;
      expect(profile).to.include({ siret: '55210055400013', vatNumber: 'FR96552100554', country: 'FR', version: 1, stripeSyncedVersion: 1 });
      expect(profile.stripeCustomerId).to.match(/^cus_/);

      // The customer as the official client sent it, and stripe-mock accepted it.
      const [created] = sent('POST', /^\/v1\/customers$/).slice(customersBefore);
      expect(created!.status).to.equal(200);
      expect(created!.idempotencyKey).to.equal(`customer-${accountId}-v1`);
      expect(Object.fromEntries(created!.params)).to.include({
        name: 'Exemple Industries SAS',
        email: 'compta@exemple.fr',
        'address[line1]': '12 rue des Lilas',
        'address[line2]': 'Bâtiment B',
        'address[postal_code]': '69003',
        'address[city]': 'Lyon',
        'address[country]': 'FR',
        'tax_id_data[0][type]': 'eu_vat',
        'tax_id_data[0][value]': 'FR96552100554',
        'preferred_locales[0]': 'fr',
        'metadata[account_id]': accountId,
      });

      // The audit entry, written with the profile.
      const entries = await audit(accountId);
      expect(entries.map((e) => e.action)).to.deep.equal(['billing_profile.created']);
      expect(entries[0]).to.include({ actor_type: 'developer', actor_label: email, target_type: 'account', target_id: accountId });
      expect(entries[0].details.siret).to.equal('55210055400013');

      // The next top-up's Checkout session is made with that customer, its name and address kept, the legal mentions on the invoice.
      const n = checkoutCreations().length;
      await topUp(page);
      const session = checkoutCreations()[n]!;
      expect(session.status).to.equal(200);
      const params = Object.fromEntries(session.params);
      expect(params).to.include({
        customer: profile.stripeCustomerId,
        'customer_update[address]': 'never',
        'customer_update[name]': 'never',
        'invoice_creation[enabled]': 'true',
        'invoice_creation[invoice_data][custom_fields][0][name]': 'SIRET du client',
        'invoice_creation[invoice_data][custom_fields][0][value]': '55210055400013',
        'invoice_creation[invoice_data][custom_fields][1][value]': 'Prestations de services (crédit prépayé)',
      });
      expect(params).not.to.have.property('customer_email');
      const footer = params['invoice_creation[invoice_data][footer]']!;
      const seller = stack().config.seller;
      expect(footer).to.include(seller.legalName).and.include(seller.vatNumber).and.include(seller.rcs).and.include('SIREN 123 456 782');
      expect(footer).to.include('Pénalités de retard : trois fois le taux d’intérêt légal ; indemnité forfaitaire pour frais de recouvrement : 40 €');
      // Already in step with Stripe: no second customer call for this top-up.
      expect(sent('POST', /^\/v1\/customers/).length).to.equal(customersBefore + 1);

      await page.goto(`${dash.base}/solde`);
      expect(await page.$('#billing-profile-invite')).to.equal(null);
      expect(await page.$('#billing-profile-link')).not.to.equal(null);
    });
  });

  it('a change updates the same customer (address, and the VAT number as its only tax id), recorded in the audit log; saving it again changes nothing', async () => {
    await dash.withPage(async (page) => {
      const { accountId } = await dash.signedInDeveloper(page);
      await page.goto(`${dash.base}/facturation`);
      expect(await dash.submit(page, VALID, FORM)).to.equal(200);
      const first = (await findBillingProfile(stack().db, accountId))!;
      const customerId = first.stripeCustomerId!;
      const mark = stripe.requests.length;

      // Another company: SIREN 404 833 048, no second address line.
      await page.goto(`${dash.base}/facturation`);
      const moved = { ...VALID, addressLine2: '', city: 'Villeurbanne', postalCode: '69100', siret: '40483304800014', vatNumber: 'FR83404833048' };
      expect(await dash.submit(page, moved, FORM)).to.equal(200);
      expect(page.url()).to.match(/enregistre=ok$/);
      const calls = stripe.requests.slice(mark);
      expect(calls.every((c) => c.status === 200)).to.equal(true);
      const update = calls.find((c) => c.method === 'POST' && c.path === `/v1/customers/${customerId}`)!;
      expect(Object.fromEntries(update.params)).to.include({ 'address[city]': 'Villeurbanne', 'address[postal_code]': '69100', 'address[line2]': '' });
      expect(calls.some((c) => c.method === 'GET' && c.path === `/v1/customers/${customerId}/tax_ids`)).to.equal(true);
      // stripe-mock's canned tax id is not ours: deleted; ours created.
      expect(calls.some((c) => c.method === 'DELETE' && c.path.startsWith(`/v1/customers/${customerId}/tax_ids/`))).to.equal(true);
      const taxId = calls.find((c) => c.method === 'POST' && c.path === `/v1/customers/${customerId}/tax_ids`)!;
      expect(Object.fromEntries(taxId.params)).to.deep.equal({ type: 'eu_vat', value: 'FR83404833048' });
      expect(sent('POST', /^\/v1\/customers$/).filter((c) => c.params.get('metadata[account_id]') === accountId)).to.have.length(1);
      const second = (await findBillingProfile(stack().db, accountId))!;
      expect(second).to.include({ version: 2, stripeSyncedVersion: 2, stripeCustomerId: customerId, addressLine2: null });

      let entries = await audit(accountId);
      expect(entries.map((e) => e.action)).to.deep.equal(['billing_profile.created', 'billing_profile.updated']);
      expect(entries[1].details.changed).to.have.members(['addressLine2', 'postalCode', 'city', 'siret', 'vatNumber']);

      // The same profile again: nothing written, nothing recorded, nothing sent to Stripe.
      const still = stripe.requests.length;
      await page.goto(`${dash.base}/facturation`);
      expect(await dash.submit(page, {}, FORM)).to.equal(200);
      expect(page.url()).to.match(/enregistre=inchange$/);
      entries = await audit(accountId);
      expect(entries).to.have.length(2);
      expect(stripe.requests.length).to.equal(still);

      // The audit page names the change.
      await page.goto(`${dash.base}/audit`);
      const rows = await page.$$eval('tr[data-action^="billing_profile"]', (trs) => trs.map((tr) => tr.textContent!.replace(/\s+/g, ' ')));
      expect(rows[0])
        .to.match(/Profil de facturation modifié/)
        .and.match(/profil de facturation \(.*Ville.*\)/);
      expect(rows[1]).to.match(/Profil de facturation renseigné/);
    });
  });

  it('refuses an invalid SIRET, a wrong VAT key and a SIREN that is not the SIRET’s with 400 and a French message on each field; nothing is saved', async () => {
    await dash.withPage(async (page) => {
      const { accountId } = await dash.signedInDeveloper(page);
      const cases: [Record<string, string>, Record<string, string>][] = [
        // The last digit changed: the Luhn key fails.
        [{ siret: '55210055400014' }, { siret: 'siret_checksum' }],
        [{ siret: '5521005540001' }, { siret: 'siret_format' }],
        // The right SIREN with key 97 instead of 96.
        [{ vatNumber: 'FR97552100554' }, { vatNumber: 'vat_key' }],
        [{ vatNumber: 'FR9655210055' }, { vatNumber: 'vat_format' }],
        // Both valid, but of two different companies.
        [{ vatNumber: 'FR83404833048' }, { vatNumber: 'siren_mismatch' }],
        // Several at once: each field says its own.
        [
          { legalName: '', postalCode: '6900', email: 'pas-une-adresse', siret: '55210055400014' },
          { legalName: 'required', postalCode: 'postcode', email: 'email', siret: 'siret_checksum' },
        ],
      ];
      for (const [change, expected] of cases) {
        await page.goto(`${dash.base}/facturation`);
        expect(await dash.submit(page, { ...VALID, ...change }, FORM), JSON.stringify(change)).to.equal(400);
        const errors = await fieldErrors(page);
        expect(Object.fromEntries(Object.entries(errors).map(([k, [problem]]) => [k, problem])), JSON.stringify(change)).to.deep.equal(expected);
        expect(await dash.alert(page)).to.match(/n’a pas été enregistré/);
        // What was typed is kept for correction.
        expect(await page.$eval('#city', (i) => (i as unknown as { value: string }).value)).to.equal(VALID.city);
      }
      await page.goto(`${dash.base}/facturation`);
      await dash.submit(page, { ...VALID, siret: '55210055400014', vatNumber: 'FR97552100554' }, FORM);
      const texts = await fieldErrors(page);
      expect(texts.siret![1]).to.equal('SIRET : ce numéro n’est pas un SIRET valide, sa clé de contrôle ne correspond pas. Vérifiez-le.');
      expect(texts.vatNumber![1]).to.match(/^Numéro de TVA intracommunautaire : la clé .* ne correspond pas au SIREN/);
      await page.goto(`${dash.base}/facturation`);
      await dash.submit(page, { ...VALID, vatNumber: 'FR83404833048' }, FORM);
      expect((await fieldErrors(page)).vatNumber![1]).to.match(/n’est pas celui du SIRET/);

      expect(await findBillingProfile(stack().db, accountId)).to.equal(undefined);
      expect(await audit(accountId)).to.have.length(0);
      // A profile without SIRET nor VAT number is a valid one (an individual, a company without VAT number).
      await page.goto(`${dash.base}/facturation`);
      expect(await dash.submit(page, { ...VALID, siret: '', vatNumber: '' }, FORM)).to.equal(200);
      expect(await findBillingProfile(stack().db, accountId)).to.include({ siret: null, vatNumber: null });
    });
  });

  it('refuses a POST without the session’s CSRF token (403) and changes nothing', async () => {
    await dash.withPage(async (page) => {
      const { accountId } = await dash.signedInDeveloper(page);
      await page.goto(`${dash.base}/facturation`);
      const cookie = (await page.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
      const csrf = await page.$eval('input[name=_csrf]', (i) => (i as unknown as { value: string }).value);
      const body = (token: string | undefined) => new URLSearchParams({ ...VALID, country: 'FR', ...(token === undefined ? {} : { _csrf: token }) }).toString();
      const post = (token: string | undefined) =>
        fetch(`${dash.base}/facturation`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          body: body(token),
        });
      expect((await post(undefined)).status).to.equal(403);
      expect((await post('wrong')).status).to.equal(403);
      expect(await findBillingProfile(stack().db, accountId)).to.equal(undefined);
      expect(await audit(accountId)).to.have.length(0);
      // The same request with the session's token: accepted (the refusals were the token's).
      const accepted = await post(csrf);
      expect(accepted.status).to.equal(302);
      await eventually(
        () => findBillingProfile(stack().db, accountId),
        (p) => p !== undefined,
      );
    });
  });
});
