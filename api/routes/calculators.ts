import { payThen } from '../../domain/billing/charge.js';
import { prepareComputation, runComputation } from '../../domain/calculations/compute.js';
import { calculatorParams, calculatorResultSchema, computeRequestSchema } from '../schemas/calculators.js';
import { defineRoute } from './route.js';
import { caller, deps } from '../respond.js';

export const calculatorRoutes = [
  defineRoute<{ slug: string }, Record<string, never>, { inputs: Record<string, string | number> }>({
    operationId: 'computeCalculator',
    method: 'POST',
    path: '/v1/calculators/{slug}/compute',
    tag: 'Calculations',
    summary: 'Run a catalogue calculator; missing inputs are completed with documented defaults',
    description:
      "Inputs are checked against the calculator's fields (422 per problem, or missingFields). Defaults are reported in defaultsApplied: the road distance is computed when the calculator needs it, and the day's average fuel price is used. " +
      'Billed as one "calculation" after the monthly free quota. SPEC.md lists no 502 here: when a partner is unavailable the answer is 422 with a detail starting route_unavailable or fuel_price_unavailable (retry, or give the value), and nothing is billed.',
    scope: 'catalogue:read',
    params: calculatorParams,
    body: computeRequestSchema,
    success: { status: 200, description: 'CalculatorResult', schema: calculatorResultSchema },
    errors: [400, 401, 402, 403, 404, 409, 413, 422, 429, 500],
    async handler(ctx, { params, body }) {
      const prepared = prepareComputation(params.slug, body.inputs);
      ctx.body = await payThen(deps(ctx), caller(ctx), 'calculation', () => runComputation(deps(ctx), prepared));
    },
  }),
];
