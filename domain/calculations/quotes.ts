import { catalogue } from '../catalogue/catalogue.js';
import { notFound, unprocessable } from '../errors.js';
import type { FieldValue } from '../letters/values.js';
import { priceOf, vatOf, VAT_RATE, type PriceUnit } from '../billing/prices.js';
import { parisDate } from '../../lib/paris-time.js';
import { addDays, type Inputs } from './calculators.js';
import type { Deps } from '../deps.js';
import { checkInputs, partnerUnavailable, requireInputs, roadDistance, type DefaultApplied } from './compute.js';

/** One line of an estimate: quantity × unit amount, in cents excluding VAT. */
export interface LineItem {
  code: string;
  label: string;
  quantity: number;
  unit: string;
  unitAmountCents: number;
  amountCents: number;
}

export interface QuoteRoute {
  from: string;
  to: string;
  distanceKm: number;
  durationMinutes: number;
}

interface Priced {
  lineItems: LineItem[];
  notes: string[];
}

/** Contact fields of a quote request: needed to send it to providers, not to estimate it. */
const CONTACT_FIELDS = ['email', 'phone'];

function line(code: string, label: string, quantity: number, unit: string, unitAmountCents: number): LineItem {
  return { code, label, quantity, unit, unitAmountCents, amountCents: Math.round(quantity * unitAmountCents) };
}

const subtotalOf = (items: LineItem[]): number => items.reduce((sum, item) => sum + item.amountCents, 0);

/** A flat line worth `rate` of the lines so far: a surcharge, or a discount with `sign` -1. */
function onSubtotal(items: LineItem[], code: string, label: string, rate: number, sign: 1 | -1 = 1): LineItem {
  return line(code, label, 1, 'flat', sign * Math.round(subtotalOf(items) * rate));
}

function inRange(inputs: Inputs, field: string, min: number, max: number): number {
  const value = Number(inputs[field]);
  if (value < min || value > max) throw unprocessable(`${field} must be between ${min} and ${max}.`, [{ field, message: `must be between ${min} and ${max}` }]);
  return value;
}

function notBefore(inputs: Inputs, field: string, earliest: string): string {
  const date = String(inputs[field]);
  if (date < earliest) throw unprocessable(`${field} must be on or after ${earliest}.`, [{ field, message: `must be on or after ${earliest}` }]);
  return date;
}

/** Whole days from today (Paris) to `date`, weekends included. */
const daysUntil = (date: string, today: string): number => Math.round((Date.parse(date) - Date.parse(today)) / 86_400_000);

/**
 * Moving: indicative market rates of French movers (handling per m³ by formula, a truck per 30 m³
 * billed per road km, stairs without a lift per floor and m³, +10 % from June to September when
 * most moves happen). The binding price is the mover's written quote (arrêté du 27 avril 2010).
 */
export const MOVING_RATES = {
  handlingPerM3Cents: { economique: 3500, standard: 5000, complete: 7000 } as Record<string, number>,
  truckCapacityM3: 30,
  truckDayCents: 15000,
  truckPerKmCents: 160,
  stairsPerFloorPerM3Cents: 300,
  highSeasonMonths: [6, 7, 8, 9],
  highSeasonRate: 0.1,
};

function movingQuote(inputs: Inputs, route: QuoteRoute): Priced {
  const volume = inRange(inputs, 'volumeM3', 1, 300);
  const rates = MOVING_RATES;
  const trucks = Math.ceil(volume / rates.truckCapacityM3);
  const items = [
    line('handling', `Manutention, formule ${inputs.formula}`, volume, 'm3', rates.handlingPerM3Cents[String(inputs.formula)]!),
    line('trucks', `Camion de ${rates.truckCapacityM3} m³ avec chauffeur`, trucks, 'truck', rates.truckDayCents),
    line(
      'transport',
      `Transport routier (${route.distanceKm} km × ${trucks} camion${trucks > 1 ? 's' : ''})`,
      Math.round(route.distanceKm * trucks * 10) / 10,
      'km',
      rates.truckPerKmCents,
    ),
  ];
  for (const [end, label] of [
    ['From', 'au départ'],
    ['To', "à l'arrivée"],
  ] as const) {
    const floor = inRange(inputs, `floor${end}`, -5, 60);
    if (floor > 0 && inputs[`elevator${end}`] === 'non') {
      items.push(
        line(
          `stairs${end}`,
          `Portage sans ascenseur ${label} (${floor} étage${floor > 1 ? 's' : ''})`,
          floor * volume,
          'floor_m3',
          rates.stairsPerFloorPerM3Cents,
        ),
      );
    }
  }
  const month = Number(String(inputs.movingDate).slice(5, 7));
  if (rates.highSeasonMonths.includes(month)) {
    items.push(onSubtotal(items, 'highSeason', 'Haute saison (juin à septembre)', rates.highSeasonRate));
  }
  return {
    lineItems: items,
    notes: [
      'Estimation indicative : le prix définitif figure sur le devis écrit et la lettre de voiture du déménageur (arrêté du 27 avril 2010).',
      'Assurance ad valorem (valeur déclarée des biens) non comprise.',
    ],
  };
}

/**
 * Bulk mailing: our own price table for each letter (printing of the first sheet, envelope,
 * postage), extra sheets and colour per page, and volume discounts.
 */
export const BULK_RATES = {
  extraSheetCents: 15,
  colourPerPageCents: 20,
  discounts: [
    { from: 10_000, rate: 0.15 },
    { from: 1_000, rate: 0.1 },
    { from: 100, rate: 0.05 },
  ],
};

function bulkMailingQuote(inputs: Inputs): Priced {
  const letters = inRange(inputs, 'letterCount', 1, 1_000_000);
  const pages = inRange(inputs, 'pagesPerLetter', 1, 40);
  const mode = String(inputs.postalMode);
  const sheets = inputs.duplex === 'recto-verso' ? Math.ceil(pages / 2) : pages;
  const perLetter = priceOf(`mailing.${mode}` as PriceUnit);
  const items = [
    line(
      'letters',
      `Courrier ${mode === 'simple' ? 'en lettre simple' : mode === 'registered' ? 'recommandé' : 'recommandé avec avis de réception'} (1re feuille, enveloppe, affranchissement)`,
      letters,
      'letter',
      perLetter,
    ),
  ];
  if (sheets > 1) items.push(line('extraSheets', 'Feuilles supplémentaires', letters * (sheets - 1), 'sheet', BULK_RATES.extraSheetCents));
  if (inputs.printColor === 'couleur') items.push(line('colour', 'Impression couleur', letters * pages, 'page', BULK_RATES.colourPerPageCents));
  const discount = BULK_RATES.discounts.find((d) => letters >= d.from);
  if (discount) {
    items.push(onSubtotal(items, 'volumeDiscount', `Remise volume (${discount.rate * 100} % dès ${discount.from} courriers)`, discount.rate, -1));
  }
  return {
    lineItems: items,
    notes: [
      'Tarif de ce service (GET /v1/catalogue, prices) : chaque courrier posté par POST /v1/mailings est débité à ce prix, hors remise de volume négociée.',
      "TVA à 20 % sur la totalité, affranchissement compris : l'impression, la mise sous pli et l'affranchissement forment un seul service vendu en notre nom (l'exonération du service universel postal ne bénéficie qu'à La Poste).",
    ],
  };
}

/**
 * Legal review: lawyers set their fees freely in a fee agreement (loi du 31 décembre 1971,
 * article 10); these are indicative rates by document, per extra page, and for urgency.
 */
export const LEGAL_REVIEW_RATES = {
  baseCents: { courrier: 9000, 'mise-en-demeure': 12000, contrat: 25000, 'conditions-generales': 35000, autre: 15000 } as Record<string, number>,
  extraPageCents: { courrier: 2000, 'mise-en-demeure': 2000, contrat: 4000, 'conditions-generales': 4000, autre: 3000 } as Record<string, number>,
  urgency: [
    { withinDays: 2, rate: 0.5 },
    { withinDays: 5, rate: 0.25 },
  ],
};

function legalReviewQuote(inputs: Inputs, today: string): Priced {
  const pages = inRange(inputs, 'pageCount', 1, 300);
  const type = String(inputs.documentType);
  const items = [line('review', `Relecture (${type}, première page)`, 1, 'document', LEGAL_REVIEW_RATES.baseCents[type]!)];
  if (pages > 1) items.push(line('extraPages', 'Pages supplémentaires', pages - 1, 'page', LEGAL_REVIEW_RATES.extraPageCents[type]!));
  const days = daysUntil(String(inputs.deadline), today);
  const urgency = LEGAL_REVIEW_RATES.urgency.find((u) => days <= u.withinDays);
  if (urgency) {
    items.push(onSubtotal(items, 'urgency', `Urgence (délai de ${days} jour${days > 1 ? 's' : ''})`, urgency.rate));
  }
  return {
    lineItems: items,
    notes: [
      "Montant indicatif : les honoraires sont libres et le montant définitif est fixé par l'avocat dans une convention d'honoraires (loi n° 71-1130 du 31 décembre 1971, article 10).",
    ],
  };
}

export interface PreparedQuote {
  slug: string;
  title: string;
  needsRoute: boolean;
  inputs: Inputs;
  defaultsApplied: DefaultApplied[];
  source: string[];
}

/** Checks the inputs (404, 422) before anything is billed; contact fields are not needed to estimate. */
export function prepareQuote(slug: string, given: Record<string, FieldValue>, today = parisDate()): PreparedQuote {
  const quote = catalogue().quotes.get(slug);
  if (!quote) throw notFound(`No quote "${slug}" in the catalogue.`);
  const inputs = checkInputs(quote, given);
  const defaultsApplied: DefaultApplied[] = [];
  if (slug === 'devis-envoi-courriers-en-nombre' && inputs.sendDate === undefined) {
    defaultsApplied.push({ field: 'sendDate', value: addDays(today, 1), reason: 'not given: the next day (Europe/Paris)' });
  }
  for (const d of defaultsApplied) inputs[d.field] = d.value;
  requireInputs(quote, inputs, CONTACT_FIELDS);
  for (const field of ['movingDate', 'sendDate', 'deadline']) if (inputs[field] !== undefined) notBefore(inputs, field, today);
  return { slug, title: quote.title, needsRoute: quote.needsRoute === true, inputs, defaultsApplied, source: quote.source };
}

/** The QuoteEstimate of POST /v1/quotes/{slug}/estimate: line items, totals, and the road route when the quote needs one. */
export async function estimateQuote(deps: Deps, prepared: PreparedQuote, today = parisDate()) {
  const { slug, inputs } = prepared;
  let route: QuoteRoute | null = null;
  if (prepared.needsRoute) {
    // SPEC.md lists no 502 for quotes: a routing outage is a 422 the caller can retry.
    route = await roadDistance(deps, String(inputs.from), String(inputs.to), () =>
      partnerUnavailable(
        'from',
        'route_unavailable',
        'The road route could not be computed right now (routing service unavailable); nothing was billed. Please retry.',
      ),
    );
    if (!route) throw unprocessable('No road route was found between from and to.', [{ field: 'to', message: 'no road route from the departure address' }]);
  }
  const priced =
    slug === 'devis-demenagement'
      ? movingQuote(inputs, route!)
      : slug === 'devis-envoi-courriers-en-nombre'
        ? bulkMailingQuote(inputs)
        : legalReviewQuote(inputs, today);
  const totalCents = subtotalOf(priced.lineItems);
  const vatCents = vatOf(totalCents);
  return {
    slug,
    title: prepared.title,
    inputs,
    defaultsApplied: prepared.defaultsApplied,
    route,
    currency: 'EUR',
    lineItems: priced.lineItems,
    totalCents,
    vatRate: VAT_RATE,
    vatCents,
    totalInclVatCents: totalCents + vatCents,
    validUntil: addDays(today, 30),
    notes: priced.notes,
    source: prepared.source,
  };
}
