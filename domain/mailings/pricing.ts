import { priceOf, vatOf, type PriceUnit } from '../billing/prices.js';
import type { Zone } from './countries.js';
import type { Fallback, Mode } from './states.js';
import type { PostageSpeed } from './postage.js';
import type { ReturnedMail } from './returned-mail.js';

/** One line of a mailing's price: a unit of catalogue/prices.json, how many, and their amount. */
export interface PriceLine {
  unit: PriceUnit;
  quantity: number;
  amountCents: number;
}

/** What a mailing costs (POST /v1/mailing-quotes answers it; the debit takes amountCents). */
export interface MailingPrice {
  amountCents: number;
  vatCents: number;
  /** Sheets in the envelope and pages printed: known before filing for own PDFs only (a catalogue or free letter is laid out at filing). */
  sheets: number | null;
  pages: number | null;
  lines: PriceLine[];
}

export const priceLine = (unit: PriceUnit, quantity: number): PriceLine => ({ unit, quantity, amountCents: priceOf(unit) * quantity });
const line = priceLine;

function total(lines: PriceLine[], sheets: number | null, pages: number | null): MailingPrice {
  const amountCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  return { amountCents, vatCents: vatOf(amountCents), sheets, pages, lines };
}

/**
 * The unit of a mailing's own line: the mode's, or for a simple letter posted at another speed
 * than the default (options.postage), that speed's instead (postage included in each).
 */
export function modeUnit(mode: Mode, postage?: PostageSpeed): PriceUnit {
  if (mode !== 'simple') return `mailing.${mode}`;
  return postage === 'economic' ? 'mailing.simple.economic' : postage === 'urgent' ? 'mailing.simple.urgent' : 'mailing.simple';
}

/** A catalogue or free-form letter: the mode's flat price (its speed's for a simple letter), whatever its length or options (as before own PDFs). */
export function flatMailingPrice(mode: Mode, postage?: PostageSpeed): MailingPrice {
  return total([line(modeUnit(mode, postage), 1)], null, null);
}

/**
 * An own PDF, by its sheets: the mode's price includes the first sheet; each further sheet (the
 * address sheet included) is a `mailing.sheet`; in colour, each sheet of the customer's pages is
 * also a `mailing.sheet.color` (the address sheet is printed in black).
 */
export function ownPdfPrice(
  mode: Mode,
  input: { pages: number; customerSheets: number; envelopeSheets: number; color: boolean; postage?: PostageSpeed },
): MailingPrice {
  const lines = [line(modeUnit(mode, input.postage), 1)];
  if (input.envelopeSheets > 1) lines.push(line('mailing.sheet', input.envelopeSheets - 1));
  if (input.color) lines.push(line('mailing.sheet.color', input.customerSheets));
  return total(lines, input.envelopeSheets, input.pages);
}

/**
 * An electronic registered letter (issue 54): `mailing.electronic` instead of the paper mode's
 * price; with a paper fallback, the paper price of the same letter (`paper`, sheets and colour
 * included) is held as a second line, `mailing.fallback_hold`, refunded once when the mailing ends
 * without posting it, or kept as the paper letter's charge (docs/billing.md). Sheets and pages are
 * the paper letter's.
 */
export function electronicMailingPrice(paper: MailingPrice, fallback: Fallback): MailingPrice {
  const lines = [line('mailing.electronic', 1)];
  if (fallback === 'paper') lines.push({ unit: 'mailing.fallback_hold', quantity: 1, amountCents: paper.amountCents });
  return total(lines, paper.sheets, paper.pages);
}

/** The lines of priced options on top of a letter's price: a simple letter's returns handled digitally (`mailing.returned_mail.digital`). */
export function withReturnedMailLine(price: MailingPrice, options: { returnedMail?: ReturnedMail }): MailingPrice {
  if (options.returnedMail !== 'digital') return price;
  return total([...price.lines, line('mailing.returned_mail.digital', 1)], price.sheets, price.pages);
}

/** The amount of a price's fallback hold (0 without one). */
export function fallbackHoldOf(price: MailingPrice): number {
  return price.lines.find((l) => l.unit === 'mailing.fallback_hold')?.amountCents ?? 0;
}

/**
 * A paper letter to a recipient abroad (./countries.ts): its zone's line, `mailing.zone.europe` or
 * `mailing.zone.world`, added to the price, sheets and colour included. France, Monaco, Andorra
 * and the French overseas (OM1, OM2) add none: they are posted at the French price.
 */
export function zoneSurcharge(price: MailingPrice, zone: Zone): MailingPrice {
  if (zone !== 'europe' && zone !== 'world') return price;
  return total([...price.lines, line(`mailing.zone.${zone}`, 1)], price.sheets, price.pages);
}

/** A price with the lines of the operator's options (a return envelope, a longer archive: ./postal-options.ts) added. */
export function withOptionLines(price: MailingPrice, lines: PriceLine[]): MailingPrice {
  return lines.length ? total([...price.lines, ...lines], price.sheets, price.pages) : price;
}
