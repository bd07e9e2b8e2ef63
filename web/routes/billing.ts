import type Router from '@koa/router';
import type { Context } from 'koa';
import { randomBytes } from 'node:crypto';
import {
  balanceView,
  findTopUp,
  findTopUpBySession,
  ledgerPage,
  listTopUps,
  startTopUp,
  TOPUP_LIMITS,
  topUpPrice,
  type TopUpRecord,
} from '../../domain/billing/topups.js';
import { VAT_RATE } from '../../domain/billing/prices.js';
import { DomainError, InvalidRequest } from '../../domain/errors.js';
import { signStripePayload, Stripe } from '../../lib/stripe.js';
import { logger } from '../../lib/logger.js';
import type { WebKit } from '../kit.js';
import { BASE, infoPage, type Message } from '../pages/layout.js';
import { billingPage, testInvoicePage, testInvoicePdf, testPaymentPage } from '../pages/billing.js';
import { checkBillingProfile, findBillingProfile, pushBillingProfile, saveBillingProfile, BILLING_FIELDS } from '../../domain/billing/profiles.js';
import { billingProfilePage, profileForm, type BillingForm } from '../pages/billing-profile.js';
import { euros } from '../pages/format.js';

/** The amounts offered as buttons (excluding VAT); any other step of the limits can be typed. */
const PRESET_CENTS = [2000, 5000, 10_000, 20_000];
const LEDGER_PAGE = 20;

/** Stripe Checkout's own address: the top-up form's answer redirects there (CSP form-action). */
const CHECKOUT_ORIGIN = 'https://checkout.stripe.com';

/** How many times the balance page asks again by itself after a payment (every 2 s). */
const REFRESH_TRIES = 30;

const RESULT_MESSAGES: Record<string, Message> = {
  ok: { kind: 'notice', text: 'Paiement reçu : votre solde est crédité dès que Stripe le confirme (quelques secondes) ; cette page se met à jour seule.' },
  credite: { kind: 'notice', text: 'Recharge créditée : votre solde est à jour.' },
  lent: {
    kind: 'notice',
    text: 'Paiement reçu, mais Stripe ne l’a pas encore confirmé : votre solde sera crédité dès qu’il le fera. Rechargez cette page dans quelques minutes.',
  },
  echec: { kind: 'error', text: 'Le paiement a échoué : rien n’a été débité ni crédité.' },
  annule: { kind: 'notice', text: 'Paiement abandonné : rien n’a été débité ni crédité.' },
};

/**
 * The balance, the month's free quota, the ledger, top-ups through Stripe Checkout and their
 * invoices. Without Stripe keys in a local run, a marked test payment page stands in for Checkout
 * and sends Stripe's signed event to /stripe/webhook; it does not exist anywhere else.
 */
export function billingRoutes(router: Router, kit: WebKit): void {
  const { db, config } = kit.deps;
  const testPayments = config.stripe.mode === 'mock';

  async function renderBilling(ctx: Context, status: number, m?: Message): Promise<void> {
    const session = ctx.state.session!;
    const accountId = session.user!.accountId;
    const topUps = await listTopUps(db, accountId);
    // Back from paying: asked again every 2 s while a top-up waits for Stripe's confirmation (a
    // minute at most); once credited, the page says so and stops.
    let refresh: { url: string; seconds: number } | undefined;
    if (ctx.query.paiement === 'ok') {
      const tries = Math.max(0, Math.min(REFRESH_TRIES, Number(ctx.query.essai) || 0));
      // The latest top-up (listTopUps: newest first) is the one just paid; an older one left pending was abandoned.
      if (topUps[0]?.status !== 'pending') return ctx.redirect(`${BASE}/solde?paiement=credite`);
      if (tries >= REFRESH_TRIES) m ??= RESULT_MESSAGES.lent;
      else refresh = { url: `${BASE}/solde?paiement=ok&essai=${tries + 1}`, seconds: 2 };
    }
    const cursor = typeof ctx.query.apres === 'string' ? ctx.query.apres : undefined;
    let ledger;
    try {
      ledger = await ledgerPage(db, config.secretKey, accountId, { limit: LEDGER_PAGE, cursor });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      ledger = await ledgerPage(db, config.secretKey, accountId, { limit: LEDGER_PAGE });
      m ??= { kind: 'error', text: 'Ce lien de page du relevé n’est plus valable : voici les mouvements les plus récents.' };
    }
    ctx.set(
      'Content-Security-Policy',
      (ctx.response.get('Content-Security-Policy') as string).replace("form-action 'self'", `form-action 'self' ${CHECKOUT_ORIGIN}`),
    );
    kit.page(
      ctx,
      status,
      billingPage(session, {
        balance: await balanceView(db, accountId),
        presets: PRESET_CENTS.map(topUpPrice),
        limits: TOPUP_LIMITS,
        vatRate: VAT_RATE,
        topUps,
        refresh,
        hasProfile: (await findBillingProfile(db, accountId)) !== undefined,
        ledger: { ...ledger, first: cursor === undefined },
        enabled: config.stripe.mode !== 'disabled',
        testPayments,
        m: m ?? RESULT_MESSAGES[String(ctx.query.paiement)],
      }),
    );
  }

  router.get('/solde', kit.allowed('balance'), (ctx) => renderBilling(ctx, 200));

  router.post('/solde/recharger', kit.allowed('balance'), async (ctx) => {
    const session = ctx.state.session!;
    const choice = kit.form(ctx, 'amountCents');
    const other = kit.form(ctx, 'otherEuros').replace(',', '.');
    const amountCents = choice === 'other' ? Math.round(Number(other) * 100) : Number(choice);
    const back = `${kit.publicUrl()}${BASE}/solde`;
    try {
      const topUp = await startTopUp(kit.deps, {
        accountId: session.user!.accountId,
        amountCents: choice === '' || (choice === 'other' && other.trim() === '') ? undefined : amountCents,
        email: session.user!.email,
        successUrl: `${back}?paiement=ok`,
        cancelUrl: `${back}?paiement=annule`,
      });
      ctx.redirect(testPayments ? `${BASE}/paiement-test/${encodeURIComponent(topUp.sessionId)}` : topUp.url);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const { minCents, maxCents, stepCents } = TOPUP_LIMITS;
      const invalid = error instanceof InvalidRequest;
      const text = invalid
        ? `Choisissez un montant de ${euros(minCents)} à ${euros(maxCents)} HT, par pas de ${euros(stepCents)}.`
        : 'Le paiement n’a pas pu être préparé ; rien n’a été débité. Réessayez dans un instant.';
      await renderBilling(ctx, invalid ? 400 : 503, { kind: 'error', text });
    }
  });

  const SAVED: Record<string, Message> = {
    ok: { kind: 'notice', text: 'Profil de facturation enregistré : vos prochaines factures le porteront.' },
    attente: {
      kind: 'notice',
      text: 'Profil de facturation enregistré. Stripe n’a pas pu être mis à jour tout de suite : il le sera avant votre prochaine recharge.',
    },
    inchange: { kind: 'notice', text: 'Rien n’a changé : le profil enregistré est déjà celui-ci.' },
  };

  router.get('/facturation', kit.allowed('billing'), async (ctx) => {
    const session = ctx.state.session!;
    const profile = await findBillingProfile(db, session.user!.accountId);
    kit.page(ctx, 200, billingProfilePage(session, { profile, form: profileForm(profile), m: SAVED[String(ctx.query.enregistre)] }));
  });

  router.post('/facturation', kit.allowed('billing'), async (ctx) => {
    const session = ctx.state.session!;
    const accountId = session.user!.accountId;
    const form = Object.fromEntries(BILLING_FIELDS.map((name) => [name, kit.form(ctx, name)])) as BillingForm;
    const checked = checkBillingProfile(form);
    if ('problems' in checked) {
      const count = Object.keys(checked.problems).length;
      return kit.page(
        ctx,
        400,
        billingProfilePage(session, {
          profile: await findBillingProfile(db, accountId),
          form,
          problems: checked.problems,
          m: { kind: 'error', text: `Le profil n’a pas été enregistré : ${count} champ${count > 1 ? 's' : ''} à corriger.` },
        }),
      );
    }
    const saved = await saveBillingProfile(db, accountId, checked.value, kit.actor(ctx));
    if (saved.outcome === 'unchanged') return ctx.redirect(`${BASE}/facturation?enregistre=inchange`);
    const pushed = await pushBillingProfile(kit.deps, accountId);
    ctx.redirect(`${BASE}/facturation?enregistre=${pushed || config.stripe.mode === 'disabled' ? 'ok' : 'attente'}`);
  });

  if (!testPayments) return;

  /** The signed-in account's top-up of this Checkout session, else a 404 page. */
  async function ownTopUp(ctx: Context, find: () => Promise<TopUpRecord | undefined>): Promise<TopUpRecord | undefined> {
    const topUp = await find();
    if (topUp && topUp.accountId === ctx.state.session!.user!.accountId) return topUp;
    kit.page(ctx, 404, infoPage(ctx.state.session, 'Paiement introuvable', { kind: 'error', text: 'Aucune recharge de ce compte ne correspond.' }));
    return undefined;
  }

  router.get('/paiement-test/factures/:id', kit.allowed('balance'), async (ctx) => {
    const topUp = await ownTopUp(ctx, () => findTopUp(db, ctx.params.id ?? ''));
    if (topUp) kit.page(ctx, 200, testInvoicePage(ctx.state.session!, topUp, VAT_RATE));
  });
  router.get('/paiement-test/factures/:id/pdf', kit.allowed('balance'), async (ctx) => {
    const topUp = await ownTopUp(ctx, () => findTopUp(db, ctx.params.id ?? ''));
    if (!topUp) return;
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="facture-test-${topUp.id}.pdf"`);
    ctx.body = testInvoicePdf(topUp, VAT_RATE);
  });

  router.get('/paiement-test/:session', kit.allowed('balance'), async (ctx) => {
    const topUp = await ownTopUp(ctx, () => findTopUpBySession(db, ctx.params.session ?? ''));
    if (!topUp) return;
    if (topUp.status !== 'pending') return ctx.redirect(`${BASE}/solde`);
    kit.page(ctx, 200, testPaymentPage(ctx.state.session!, topUp, VAT_RATE));
  });

  router.post('/paiement-test/:session', kit.allowed('balance'), async (ctx) => {
    const topUp = await ownTopUp(ctx, () => findTopUpBySession(db, ctx.params.session ?? ''));
    if (!topUp) return;
    const paid = kit.form(ctx, 'outcome') === 'paid';
    // What Stripe sends for a card payment (completed, paid), or for a payment that fails after the
    // form was submitted (completed while unpaid, then async_payment_failed).
    const events = paid
      ? [checkoutEvent(topUp, 'checkout.session.completed', 'paid')]
      : [checkoutEvent(topUp, 'checkout.session.completed', 'unpaid'), checkoutEvent(topUp, 'checkout.session.async_payment_failed', 'unpaid')];
    for (const event of events) {
      const payload = JSON.stringify(event);
      const response = await fetch(`${kit.publicUrl()}/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(config.stripe, payload) },
        body: payload,
      });
      if (!response.ok) {
        logger.error({ status: response.status, body: await response.text() }, 'the test payment page could not deliver its event');
        return kit.page(
          ctx,
          502,
          infoPage(ctx.state.session, 'Paiement de test', { kind: 'error', text: 'L’événement n’a pas été accepté par /stripe/webhook.' }),
        );
      }
    }
    ctx.redirect(`${BASE}/solde?paiement=${paid ? 'ok' : 'echec'}`);
  });
}

/** A Stripe event about a Checkout session, shaped as Stripe sends it (API version of the client). */
function checkoutEvent(topUp: TopUpRecord, type: string, paymentStatus: 'paid' | 'unpaid') {
  return {
    id: `evt_test_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: {
        id: topUp.sessionId,
        object: 'checkout.session',
        mode: 'payment',
        client_reference_id: topUp.id,
        metadata: { topup_id: topUp.id },
        currency: 'eur',
        amount_subtotal: topUp.amountCents,
        amount_total: topUp.totalCents,
        payment_status: paymentStatus,
        status: 'complete',
      },
    },
  };
}
