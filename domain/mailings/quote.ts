import type { Caller, Deps } from '../deps.js';
import { prepareMailing } from './prepare.js';
import type { MailingPrice } from './pricing.js';
import type { MailingRequest } from './request.js';

/**
 * POST /v1/mailing-quotes: the same checks as POST /v1/mailings on the same body (./prepare.ts),
 * then the price it would debit; nothing is charged or created.
 */
export async function quoteMailing(
  deps: Deps,
  caller: Pick<Caller, 'addressCheckDefault' | 'accountId' | 'postalSettings'>,
  request: MailingRequest,
): Promise<MailingPrice> {
  return (await prepareMailing(deps, request, caller.addressCheckDefault, caller.accountId, caller.postalSettings)).price;
}
