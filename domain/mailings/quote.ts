import { unprocessable } from '../errors.js';
import { addressProblems } from './addresses.js';
import { prepareLetter } from './letter.js';
import { isOwnPdfRequest, prepareOwnPdf } from './own-pdf-letter.js';
import { flatMailingPrice, type MailingPrice } from './pricing.js';
import type { MailingRequest } from './request.js';

/**
 * POST /v1/mailings/quote: the same checks as POST /v1/mailings on the same body (addresses, the
 * letter, an own PDF's every check), then the price it would debit; nothing is charged or created.
 */
export async function quoteMailing(request: MailingRequest): Promise<MailingPrice> {
  const problems = [...addressProblems(request.sender, 'sender'), ...(request.recipient ? addressProblems(request.recipient, 'recipient') : [])];
  if (problems.length)
    throw unprocessable(`Invalid postal address: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`, problems, 'address_invalid');
  if (isOwnPdfRequest(request)) return (await prepareOwnPdf(request)).price;
  prepareLetter(request);
  return flatMailingPrice(request.mode);
}
