import type { Deps } from '../deps.js';
import { checkRecipientAddress } from './address-check.js';
import { prepareLetter, type PreparedLetter } from './letter.js';
import type { AddressCheck, AddressedMailingRequest } from './request.js';

/**
 * The letter as printed, its recipient checked against the national address base when the letter
 * prints the request's recipient (not a catalogue provider's reviewed address). The letter's own
 * checks come first, so a refused letter costs no geocoder call; it is laid out again with the
 * address as checked, and the check's warnings follow the letter's.
 */
export async function printedRecipient(deps: Deps, request: AddressedMailingRequest, addressCheck: AddressCheck): Promise<PreparedLetter> {
  const letter = prepareLetter(request);
  const printsRequestRecipient = letter.document.kind === 'free' || !letter.document.letter?.provider;
  if (!request.recipient || !printsRequestRecipient) return letter;
  const checked = await checkRecipientAddress(deps, request.recipient, addressCheck);
  const final = prepareLetter({ ...request, recipient: checked.recipient });
  return { ...final, warnings: [...final.warnings, ...checked.warnings] };
}
