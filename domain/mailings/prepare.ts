import type { Deps } from '../deps.js';
import type { PostalSettings } from '../access/postal-settings.js';
import { unprocessable } from '../errors.js';
import { addressProblems } from './addresses.js';
import { checkRecipientAddress } from './address-check.js';
import type { PreparedLetter } from './letter.js';
import { isOwnPdfRequest, prepareOwnPdf, type PreparedOwnPdf } from './own-pdf-letter.js';
import { printedRecipient } from './printed-recipient.js';
import { checkChannel } from './electronic-request.js';
import { addressCheckWarnings, checkDestination, withZone } from './destination.js';
import { electronicMailingPrice, flatMailingPrice, withOptionLines, withReturnedMailLine, type MailingPrice } from './pricing.js';
import { resolvePostalOptions, settingsForRequest } from './postal-options.js';
import type { AddressCheck, AddressedMailingRequest, MailingRequest } from './request.js';
import { checkSendAt } from './send-date-check.js';
import { checkPostage } from './postage.js';
import { checkReturnedMail } from './returned-mail.js';
import { withRecipientAddress } from './siret-recipient.js';

/** A mailing request once every check passed: what is recorded, stored and charged. */
export interface PreparedMailing {
  request: AddressedMailingRequest;
  /** The letter as printed; an own PDF has no layout (its stored bytes are printed). */
  letter: Omit<PreparedLetter, 'layout'> & { layout: PreparedLetter['layout'] | null };
  ownPdf?: PreparedOwnPdf;
  /** The list price (a test key pays nothing, the quote still says what live would). */
  price: MailingPrice;
}

/**
 * Every check of POST /v1/mailings, shared by its quote so that a quoted request is one the
 * creation accepts: a recipient by SIRET becomes its registered address; the postal norm and the
 * commune list; the send date; the letter (an own PDF's every check first, so a refused PDF costs
 * no geocoder call); then the recipient against the national address base (strict unless the
 * request or its account's default says lenient; an address abroad is not in that base: the
 * postal rules of its country, ./countries.ts). The mode must reach the recipient's country, and a
 * letter abroad adds its zone's price line (./destination.ts). The operator's options (a return
 * envelope, the archive, the envelope: ./postal-options.ts) are checked against the mode and the
 * account's settings (read when `accountId` is given) before any partner is called. Nothing is charged.
 */
export async function prepareMailing(
  deps: Deps,
  given: MailingRequest,
  addressCheckDefault: AddressCheck = 'strict',
  accountId?: string,
  knownSettings?: PostalSettings,
): Promise<PreparedMailing> {
  const postal = resolvePostalOptions(given, await settingsForRequest(deps.db, accountId, given, knownSettings));
  const addressed = await withRecipientAddress(deps, given);
  // The check the request asks for, else its account's default; recorded with the mailing's options
  // (with what the operator's options resolved to, for the filing).
  const addressCheck = given.options.addressCheck ?? addressCheckDefault;
  const request = { ...addressed, options: { ...addressed.options, addressCheck, ...postal.resolved } };
  const problems = [...addressProblems(request.sender, 'sender'), ...(request.recipient ? addressProblems(request.recipient, 'recipient') : [])];
  if (problems.length)
    throw unprocessable(`Invalid postal address: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`, problems, 'address_invalid');
  checkDestination(request);
  checkSendAt(request.sendAt);
  checkChannel(request);
  checkPostage(request);
  checkReturnedMail(request);
  // The electronic price stands on the paper one (its zone and options included): a paper fallback holds it (./pricing.ts).
  const priced = (letter: MailingPrice): MailingPrice => {
    const paper = withOptionLines(withReturnedMailLine(withZone(letter, request), request.options), postal.lines);
    return request.channel === 'electronic' && request.electronic ? electronicMailingPrice(paper, request.electronic.fallback) : paper;
  };
  const abroad = addressCheckWarnings(given, request);
  if (!isOwnPdfRequest(request)) {
    const letter = await printedRecipient(deps, request, addressCheck);
    return {
      request,
      letter: { ...letter, warnings: [...letter.warnings, ...abroad] },
      price: priced(flatMailingPrice(request.mode, request.options.postage)),
    };
  }
  const ownPdf = await prepareOwnPdf(request);
  const checked = await checkRecipientAddress(deps, request.recipient!, addressCheck);
  return {
    request,
    letter: { ...ownPdf.letter, recipient: checked.recipient, warnings: [...ownPdf.letter.warnings, ...checked.warnings, ...abroad], layout: null },
    ownPdf,
    price: priced(ownPdf.price),
  };
}
