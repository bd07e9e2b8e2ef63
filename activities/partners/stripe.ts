import { ApplicationFailure } from '@temporalio/activity';
import type { StripeConfig } from '../../lib/config.js';
import { Stripe, stripeClient } from '../../lib/stripe.js';
import type { InvoiceLinks, TopUpPrice } from '../../domain/billing/topups.js';
import type { BillingProfile } from '../../domain/billing/profiles.js';
import type { InvoiceMentions } from '../../domain/billing/invoice-mentions.js';

/** The VAT rate on our Stripe account that top-ups are invoiced with, found or created once per process. */
const VAT_TAX_RATE_KEY = 'svc-fr-vat';

/**
 * Stripe as the top-up activities use it: Checkout sessions (mode=payment, card, through which
 * Apple Pay and Google Pay are offered, an invoice created on payment) and the invoice of a paid
 * session. Against stripe-mock (local runs) the same calls are made; its invoices have no links,
 * so local test pages stand in for them (`localInvoicePath`).
 */
export class StripeCheckout {
  private readonly stripe: Stripe;
  private taxRate: Promise<string> | undefined;

  constructor(private readonly config: StripeConfig) {
    this.stripe = stripeClient(config);
  }

  /** French VAT at `rate`, exclusive (added on top of the credit), as a Stripe TaxRate. */
  private vatTaxRate(rate: number): Promise<string> {
    const percentage = Math.round(rate * 10_000) / 100;
    this.taxRate ??= (async () => {
      const key = `${VAT_TAX_RATE_KEY}-${percentage}`;
      for await (const existing of this.stripe.taxRates.list({ active: true, inclusive: false, limit: 100 })) {
        if (existing.metadata?.svc_key === key && existing.percentage === percentage) return existing.id;
      }
      const created = await this.stripe.taxRates.create(
        {
          display_name: 'TVA',
          description: `TVA France ${percentage} %`,
          jurisdiction: 'FR',
          country: 'FR',
          percentage,
          inclusive: false,
          metadata: { svc_key: key },
        },
        { idempotencyKey: key },
      );
      return created.id;
    })().catch((error: unknown) => {
      this.taxRate = undefined;
      throw error;
    });
    return this.taxRate;
  }

  /**
   * The account's Customer made or brought up to date from its billing profile: name, address,
   * billing email, French invoices, and the VAT number as its one tax id (`eu_vat`), which Stripe
   * prints on the invoices. Answers the customer id.
   */
  async upsertCustomer(profile: BillingProfile): Promise<string> {
    const fields = {
      name: profile.legalName,
      email: profile.email,
      address: {
        line1: profile.addressLine1,
        // An empty string clears a former second line.
        line2: profile.addressLine2 ?? '',
        postal_code: profile.postalCode,
        city: profile.city,
        country: profile.country,
      },
      preferred_locales: ['fr'],
      metadata: { account_id: profile.accountId },
    };
    const version = `${profile.accountId}-v${profile.version}`;
    if (!profile.stripeCustomerId) {
      const created = await this.stripe.customers.create(
        { ...fields, ...(profile.vatNumber ? { tax_id_data: [{ type: 'eu_vat' as const, value: profile.vatNumber }] } : {}) },
        // A retried activity gets the same customer, not a second one.
        { idempotencyKey: `customer-${version}` },
      );
      return created.id;
    }
    const id = profile.stripeCustomerId;
    await this.stripe.customers.update(id, fields);
    const taxIds = await this.stripe.customers.listTaxIds(id, { limit: 100 });
    const ours = (t: Stripe.TaxId): boolean => t.type === 'eu_vat' && t.value === profile.vatNumber;
    for (const taxId of taxIds.data) if (!ours(taxId)) await this.stripe.customers.deleteTaxId(id, taxId.id);
    if (profile.vatNumber && !taxIds.data.some(ours))
      await this.stripe.customers.createTaxId(id, { type: 'eu_vat', value: profile.vatNumber }, { idempotencyKey: `tax-id-${version}` });
    return id;
  }

  async createSession(input: {
    topUpId: string;
    price: TopUpPrice;
    /** The account's Customer (its billing profile), else the developer's email only. */
    customer: { id: string } | { email: string };
    mentions: InvoiceMentions;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ sessionId: string; url: string }> {
    const taxRate = await this.vatTaxRate(input.price.vatRate);
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        // Cards, and the wallets (Apple Pay, Google Pay) that Checkout offers through the card method.
        payment_method_types: ['card'],
        client_reference_id: input.topUpId,
        metadata: { topup_id: input.topUpId },
        ...('id' in input.customer
          ? // The profile's name and address stay the invoice's: the card's billing address never replaces them.
            { customer: input.customer.id, customer_update: { address: 'never' as const, name: 'never' as const } }
          : { customer_email: input.customer.email }),
        line_items: [
          {
            quantity: 1,
            tax_rates: [taxRate],
            price_data: {
              currency: 'eur',
              unit_amount: input.price.amountCents,
              product_data: { name: `Crédit prépayé de ${(input.price.amountCents / 100).toFixed(2).replace('.', ',')} € HT` },
            },
          },
        ],
        invoice_creation: {
          enabled: true,
          invoice_data: {
            description: 'Recharge du crédit prépayé',
            metadata: { topup_id: input.topUpId },
            custom_fields: input.mentions.customFields,
            footer: input.mentions.footer,
          },
        },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      },
      // A retried activity gets the same session from Stripe, not a second one.
      { idempotencyKey: `checkout-${input.topUpId}` },
    );
    if (!session.url) throw ApplicationFailure.retryable('Stripe answered a Checkout session without a payment page', 'PartnerMalformed');
    return { sessionId: session.id, url: session.url };
  }

  /** The invoice of a paid session, once Stripe has finalised it (until then: a retryable failure). */
  async sessionInvoice(sessionId: string, topUpId: string): Promise<InvoiceLinks> {
    const session = await this.stripe.checkout.sessions.retrieve(sessionId, { expand: ['invoice'] });
    const invoice = session.invoice;
    if (!invoice || typeof invoice === 'string') throw ApplicationFailure.retryable(`no invoice on session ${sessionId} yet`, 'InvoiceNotReady');
    if (this.config.mode === 'mock') {
      // stripe-mock's invoices are drafts without links: the local test pages show this top-up's invoice.
      const path = localInvoicePath(topUpId);
      return {
        invoiceId: invoice.id!,
        number: invoice.number ?? null,
        hostedUrl: invoice.hosted_invoice_url ?? path,
        pdfUrl: invoice.invoice_pdf ?? `${path}/pdf`,
      };
    }
    if (!invoice.hosted_invoice_url || !invoice.invoice_pdf)
      throw ApplicationFailure.retryable(`invoice ${invoice.id} is not finalised yet`, 'InvoiceNotReady');
    return { invoiceId: invoice.id!, number: invoice.number ?? null, hostedUrl: invoice.hosted_invoice_url, pdfUrl: invoice.invoice_pdf };
  }
}

/** The local test invoice of a top-up (web/routes/billing.ts serves it in local runs only). */
export const localInvoicePath = (topUpId: string): string => `/dashboard/paiement-test/factures/${topUpId}`;

/** Stripe's refusals are final (4xx other than 409 and 429); anything else is worth another attempt. */
export async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      const status = error.statusCode ?? 0;
      if (status >= 400 && status < 500 && status !== 409 && status !== 429)
        throw ApplicationFailure.nonRetryable(`Stripe refused the request (${status} ${error.code ?? error.type}): ${error.message}`, 'PartnerRefused');
    }
    throw error;
  }
}
