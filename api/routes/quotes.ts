import { payThen } from '../../domain/billing/charge.js';
import { estimateQuote, prepareQuote } from '../../domain/calculations/quotes.js';
import { quoteEstimateRequestSchema, quoteEstimateSchema, quoteParams } from '../schemas/quotes.js';
import { defineRoute } from './route.js';
import { caller, deps } from '../respond.js';

export const quoteRoutes = [
  defineRoute<{ slug: string }, Record<string, never>, { inputs: Record<string, string | number> }>({
    operationId: 'estimateQuote',
    method: 'POST',
    path: '/v1/quotes/{slug}/estimate',
    tag: 'Calculations',
    summary: 'Estimate a catalogue quote: line items and totals, with the road route when the quote needs one',
    description:
      "Inputs are checked against the quote's fields (422 per problem, or missingFields); contact fields (email, phone) are not needed to estimate. Dates must not be in the past. " +
      'The moving quote computes the road route between from and to; when no route exists, or the routing service is unavailable, the answer is 422 and nothing is billed. ' +
      'Billed as one "calculation" after the monthly free quota.',
    scope: 'catalogue:read',
    params: quoteParams,
    body: quoteEstimateRequestSchema,
    success: { status: 200, description: 'QuoteEstimate', schema: quoteEstimateSchema },
    errors: [400, 401, 402, 403, 404, 409, 413, 422, 429, 500],
    async handler(ctx, { params, body }) {
      const prepared = prepareQuote(params.slug, body.inputs);
      ctx.body = await payThen(deps(ctx), caller(ctx), 'calculation', () => estimateQuote(deps(ctx), prepared));
    },
  }),
];
