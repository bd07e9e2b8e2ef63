import type { SellerConfig } from '../../lib/config.js';

/**
 * What French law asks an invoice to say beyond what Stripe prints itself (number, dates, lines,
 * unit price excl. VAT, VAT rate and amount, totals, the buyer's name, address and VAT number from
 * the Customer): Code de commerce L441-9 and R123-237, CGI annexe II art. 242 nonies A.
 * Stripe allows 4 custom fields (name ≤ 40 characters, value ≤ 140) and a footer (≤ 5,000).
 */

export interface InvoiceMentions {
  customFields: { name: string; value: string }[];
  footer: string;
}

export const STRIPE_LIMITS = { customFields: 4, name: 40, value: 140, footer: 5000 } as const;

const groupSiren = (siren: string): string => siren.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');

export function invoiceMentions(seller: SellerConfig, buyer: { siret: string | null } | undefined): InvoiceMentions {
  const customFields = [
    // CGI 242 nonies A: the buyer's SIREN (the SIRET carries it) and the category of the operation.
    ...(buyer?.siret ? [{ name: 'SIRET du client', value: buyer.siret }] : []),
    { name: 'Catégorie de l’opération', value: 'Prestations de services (crédit prépayé)' },
    // L441-9: the payment date; a top-up is paid when ordered, by card.
    { name: 'Règlement', value: 'Payée à la commande, par carte' },
  ];
  const footer = [
    `${seller.legalName}, ${seller.legalForm}. Siège : ${seller.address}. SIREN ${groupSiren(seller.siren)} ${seller.rcs}. N° TVA intracommunautaire : ${seller.vatNumber}.`,
    'Pas d’escompte pour paiement anticipé.',
    'Pénalités de retard : trois fois le taux d’intérêt légal ; indemnité forfaitaire pour frais de recouvrement : 40 € (art. L441-10 C. com.).',
    ...(seller.vatOnDebits ? ['Option pour le paiement de la TVA d’après les débits.'] : []),
  ].join('\n');
  return { customFields, footer };
}
