import type { RequestWarning } from '../catalogue/compatibility.js';
import { unprocessable } from '../errors.js';
import { isAbroad, registeredReaches, REGISTERED_COUNTRIES, zoneOf, type Zone } from './countries.js';
import { zoneSurcharge, type MailingPrice } from './pricing.js';
import type { AddressedMailingRequest } from './request.js';

/**
 * What a recipient's country changes in a mailing (letters abroad, ./countries.ts): whether its
 * mode reaches it, its postal zone and the zone's price line, and the warning that the national
 * address base does not check an address abroad.
 */

/**
 * A registered or AR letter is posted only where the operator's registered mail goes: 422
 * destination_not_served otherwise. An electronic letter is sent by email wherever its recipient
 * lives; only its paper fallback, when asked, must be postable there.
 */
export function checkDestination(
  request: Pick<AddressedMailingRequest, 'mode' | 'recipient'> & Partial<Pick<AddressedMailingRequest, 'channel' | 'electronic'>>,
): void {
  const recipient = request.recipient;
  if (!recipient || request.mode === 'simple' || registeredReaches(recipient)) return;
  const fallback = request.channel === 'electronic';
  if (fallback && request.electronic?.fallback !== 'paper') return;
  const letter = request.mode === 'ar' ? 'registered letter with acknowledgment of receipt' : 'registered letter';
  throw unprocessable(
    `A ${fallback ? `paper fallback (${letter})` : letter} cannot go to ${recipient.country}: the postal operator's registered mail reaches ${REGISTERED_COUNTRIES.join(', ')} only (France includes its overseas). ${fallback ? 'Send the electronic letter without a paper fallback (electronic.fallback "none").' : 'Send it as a simple letter.'}`,
    { field: 'recipient.country', country: recipient.country, mode: request.mode },
    'destination_not_served',
  );
}

/** The recipient's zone; a provider's address (no recipient given) is in France. */
export const recipientZone = (request: Pick<AddressedMailingRequest, 'recipient'>): Zone => (request.recipient ? zoneOf(request.recipient) : 'france');

/** The paper price with the recipient zone's line (none in France and its overseas). */
export const withZone = (price: MailingPrice, request: Pick<AddressedMailingRequest, 'recipient'>): MailingPrice =>
  zoneSurcharge(price, recipientZone(request));

/** options.addressCheck asked for a recipient abroad: said not to apply (the base holds French addresses only). */
export function addressCheckWarnings(given: { options: { addressCheck?: string } }, request: Pick<AddressedMailingRequest, 'recipient'>): RequestWarning[] {
  if (!given.options.addressCheck || !request.recipient || !isAbroad(request.recipient)) return [];
  return [
    {
      code: 'address_check_not_applied',
      field: 'options.addressCheck',
      message: `The national address base holds French addresses only: the recipient in ${request.recipient.country} was checked by the postal rules alone, options.addressCheck does not apply.`,
    },
  ];
}
