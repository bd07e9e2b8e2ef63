import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogueDir } from '../../lib/paths.js';

export type PriceUnit =
  | 'data.lookup'
  | 'data.lookup.premium'
  | 'calculation'
  | 'letter.pdf'
  | 'ai.fill'
  | 'ai.letter'
  | 'ai.tool'
  | 'mailing.simple'
  | 'mailing.simple.economic'
  | 'mailing.simple.urgent'
  | 'mailing.returned_mail.digital'
  | 'mailing.registered'
  | 'mailing.ar'
  | 'mailing.sheet'
  | 'mailing.sheet.color'
  | 'mailing.electronic'
  | 'mailing.fallback_hold'
  | 'mailing.zone.europe'
  | 'mailing.zone.world'
  | 'mailing.return_envelope'
  | 'mailing.archive_year';

export interface PriceTable {
  currency: 'EUR';
  amountsExcludeVat: true;
  vat: { rate: number; appliesTo: string; description: string };
  freeMonthlyQuota: { calls: number; appliesTo: PriceUnit[]; description: string };
  units: { unit: PriceUnit; label: string; amountCents: number; operations: string[] }[];
}

/** The one price table (catalogue/prices.json): every debit reads its amount here. */
export const priceTable: PriceTable = JSON.parse(readFileSync(join(catalogueDir, 'prices.json'), 'utf8'));

/** The VAT rate added to every amount of the table (mailings and their postage included, docs/billing.md). */
export const VAT_RATE = priceTable.vat.rate;

/** VAT on an amount excluding VAT, in whole cents. */
export function vatOf(amountCents: number): number {
  return Math.round(amountCents * VAT_RATE);
}

const byUnit = new Map(priceTable.units.map((u) => [u.unit, u]));

export function priceOf(unit: PriceUnit): number {
  const entry = byUnit.get(unit);
  if (!entry) throw new Error(`no price for unit ${unit}`);
  return entry.amountCents;
}

export function inFreeQuota(unit: PriceUnit): boolean {
  return priceTable.freeMonthlyQuota.appliesTo.includes(unit);
}
