import type { RequestWarning } from '../catalogue/compatibility.js';
import type { Deps } from '../deps.js';
import { unprocessable } from '../errors.js';
import { addressMatches } from '../lookups/address-matches.js';
import type { AddressMatch } from '../lookups/results.js';
import { afnorAddress } from './afnor.js';
import { isAbroad } from './countries.js';
import type { AddressCheck, MailingAddressInput } from './request.js';

/**
 * The recipient's street and number against the national address base (BAN, through the
 * geocoder). The base's score is 0 to 1; an address is confirmed when its best candidate scores at
 * least this, is in the same postcode and, when a number was given, is that house number
 * (docs/decisions.md, "The address check").
 */
export const ADDRESS_SCORE_THRESHOLD = 0.6;
/** Candidates scoring less are too far from what was sent to be offered as suggestions. */
const SUGGESTION_MIN_SCORE = 0.4;
const MAX_SUGGESTIONS = 3;

/** A postal box or a routing service: La Poste delivers these by its own codes, not by street. */
const POSTAL_BOX = /^(bp|cs|tsa|case postale|boite postale|boîte postale)(\s|\d|$)/i;
const CEDEX = /(^|\s)cedex(\s|$)/i;

export interface CheckedRecipient {
  /** What is printed and stored, in the postal norm's form. */
  recipient: MailingAddressInput;
  warnings: RequestWarning[];
}

/** The line the base can check (the norm's line 4: number and street): the last one with a number, else the last that is not a postal box. */
export function streetLineIndex(lines: string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (/^\d/.test(lines[i]!.trim())) return i;
  for (let i = lines.length - 1; i >= 0; i--) if (!POSTAL_BOX.test(lines[i]!.trim())) return i;
  return -1;
}

const houseNumber = (line: string): string | null => /^(\d+)/.exec(line.trim())?.[1] ?? null;

/** Whether the base's best candidate confirms the address sent. */
export function confirms(best: AddressMatch | undefined, address: MailingAddressInput, streetLine: string): boolean {
  if (!best || best.score < ADDRESS_SCORE_THRESHOLD || best.postcode !== address.postcode.trim()) return false;
  const number = houseNumber(streetLine);
  if (number) return best.type === 'housenumber' && houseNumber(best.housenumber ?? '') === number;
  return best.type === 'street' || best.type === 'locality' || best.type === 'housenumber';
}

/** The address sent with the base's street line, postcode and city: what the norm prints. */
function asTheBaseWritesIt(address: MailingAddressInput, index: number, match: AddressMatch): MailingAddressInput {
  const lines = address.lines.map((line, i) => (i === index ? match.name : line));
  return afnorAddress({ ...address, lines, postcode: match.postcode, city: match.city });
}

/** Up to 3 of the base's addresses near what was sent, in the request's shape, ready to resend. */
export function suggestionsOf(matches: AddressMatch[], address: MailingAddressInput, index: number): MailingAddressInput[] {
  const seen = new Set<string>();
  const suggestions: MailingAddressInput[] = [];
  for (const match of matches) {
    if (match.score < SUGGESTION_MIN_SCORE || match.type === 'municipality' || seen.has(match.label)) continue;
    seen.add(match.label);
    suggestions.push(asTheBaseWritesIt(address, index, match));
    if (suggestions.length === MAX_SUGGESTIONS) break;
  }
  return suggestions;
}

/**
 * The address check of a mailing's recipient, after the postal norm and the commune list
 * (./addresses.ts). Confirmed: printed as the base writes it. Not confirmed: 422 address_invalid
 * with `details.suggestions` (strict), or posted as given with an `address_unverified` warning
 * (lenient). The base not answering in time never blocks a mailing: posted as given, with an
 * `address_check_unavailable` warning. CEDEX and postal-box addresses are routed by La Poste's own
 * codes, which the base does not hold: the commune list is their check. An address abroad is not
 * in the base: it is printed in the norm's form, unchecked.
 */
export async function checkRecipientAddress(deps: Deps, address: MailingAddressInput, mode: AddressCheck): Promise<CheckedRecipient> {
  // The national base holds French addresses only: abroad, the postal rules are the check (./destination.ts warns when one was asked).
  if (isAbroad(address)) return { recipient: afnorAddress(address), warnings: [] };
  const index = streetLineIndex(address.lines);
  if (index < 0 || CEDEX.test(address.city)) return { recipient: afnorAddress(address), warnings: [] };
  const streetLine = address.lines[index]!.trim();
  const matches = await addressMatches(deps, `${streetLine} ${address.postcode.trim()} ${address.city.trim()}`);
  if (!matches)
    return {
      recipient: afnorAddress(address),
      warnings: [
        {
          code: 'address_check_unavailable',
          field: 'recipient',
          message: 'The national address base could not be reached in time: the address was posted as given, unchecked.',
        },
      ],
    };
  const [best] = matches;
  if (best && confirms(best, address, streetLine)) return { recipient: asTheBaseWritesIt(address, index, best), warnings: [] };
  const found = best ? `its best match is "${best.label}" (score ${best.score.toFixed(2)})` : 'it has no match';
  if (mode === 'lenient')
    return {
      recipient: afnorAddress(address),
      warnings: [
        {
          code: 'address_unverified',
          field: `recipient.lines.${index}`,
          message: `The national address base does not confirm this address (${found}); it was posted as given (address check lenient).`,
        },
      ],
    };
  throw unprocessable(
    `The national address base does not confirm the recipient's address "${streetLine}, ${address.postcode} ${address.city}": ${found}, and an address needs a score of at least ${ADDRESS_SCORE_THRESHOLD} in the same postcode, with the same house number. ` +
      'Resend one of details.suggestions, or set options.addressCheck to "lenient" to post it as given.',
    {
      field: `recipient.lines.${index}`,
      score: best?.score ?? null,
      threshold: ADDRESS_SCORE_THRESHOLD,
      suggestions: suggestionsOf(matches, address, index),
    },
    'address_invalid',
  );
}
