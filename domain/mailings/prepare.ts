import type { Deps } from '../deps.js';
import { unprocessable } from '../errors.js';
import { addressProblems } from './addresses.js';
import { checkRecipientAddress } from './address-check.js';
import type { PreparedLetter } from './letter.js';
import { isOwnPdfRequest, prepareOwnPdf, type PreparedOwnPdf } from './own-pdf-letter.js';
import { printedRecipient } from './printed-recipient.js';
import { checkChannel } from './electronic-request.js';
import { electronicMailingPrice, flatMailingPrice, withOptionLines, type MailingPrice } from './pricing.js';
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
 * request or its account's default says lenient). Nothing is charged.
 */
export async function prepareMailing(deps: Deps, given: MailingRequest, addressCheckDefault: AddressCheck = 'strict'): Promise<PreparedMailing> {
  const addressed = await withRecipientAddress(deps, given);
  // The check the request asks for, else its account's default; recorded with the mailing's options.
  const addressCheck = given.options.addressCheck ?? addressCheckDefault;
  const request = { ...addressed, options: { ...addressed.options, addressCheck } };
  const problems = [...addressProblems(request.sender, 'sender'), ...(request.recipient ? addressProblems(request.recipient, 'recipient') : [])];
  if (problems.length)
    throw unprocessable(`Invalid postal address: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`, problems, 'address_invalid');
  checkSendAt(request.sendAt);
  checkChannel(request);
  checkPostage(request);
  checkReturnedMail(request);
  // The electronic price stands on the paper one: a paper fallback holds it (./pricing.ts).
  const priced = (letter: MailingPrice): MailingPrice => {
    const paper = withOptionLines(letter, request.options);
    return request.channel === 'electronic' && request.electronic ? electronicMailingPrice(paper, request.electronic.fallback) : paper;
  };
  if (!isOwnPdfRequest(request))
    return { request, letter: await printedRecipient(deps, request, addressCheck), price: priced(flatMailingPrice(request.mode, request.options.postage)) };
  const ownPdf = await prepareOwnPdf(request);
  const checked = await checkRecipientAddress(deps, request.recipient!, addressCheck);
  return {
    request,
    letter: { ...ownPdf.letter, recipient: checked.recipient, warnings: [...ownPdf.letter.warnings, ...checked.warnings], layout: null },
    ownPdf,
    price: priced(ownPdf.price),
  };
}
