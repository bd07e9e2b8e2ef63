import { quoteMailing } from '../../domain/mailings/quote.js';
import type { MailingPrice } from '../../domain/mailings/pricing.js';
import { mailingQuoteSchema, mailingRequestSchema, type MailingRequest } from '../schemas/mailings.js';
import { caller, deps } from '../respond.js';
import { defineRoute } from './route.js';

export const mailingQuoteRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, MailingRequest>({
    operationId: 'quoteMailing',
    method: 'POST',
    path: '/v1/mailing-quotes',
    tag: 'Mailings',
    summary: 'The price of a mailing before sending it: the same body as POST /v1/mailings, nothing charged or created',
    description:
      'Beyond SPEC.md, non-breaking. Runs the checks of POST /v1/mailings (a recipient by SIRET, the addresses and the national address base, the send date, the letter and every check of a PDF letter: the same 422s) and answers what it would debit, with its lines. ' +
      "A PDF letter is priced by its sheets, colour and duplex; catalogue and free letters cost their mode's flat price. Free, for test and live keys alike.",
    scope: 'mailings:write',
    body: mailingRequestSchema,
    success: { status: 200, description: 'MailingQuote', schema: mailingQuoteSchema },
    errors: [400, 401, 403, 404, 409, 413, 422, 429, 500, 502],
    async handler(ctx, { body }) {
      const price: MailingPrice = await quoteMailing(deps(ctx), caller(ctx), body);
      ctx.body = price;
    },
  }),
];
