import { payThen } from '../billing/charge.js';
import { upstreamError } from '../errors.js';
import { cached } from '../lookups/cache.js';
import { runWorkflow } from '../workflows.js';
import { fuelPricesQuery, fuelPricesSchema } from '../schemas/fuel.js';
import type { FuelPriceLookup } from '../../workflows/lookups.js';
import { defineRoute } from './route.js';

/** Fuel prices are kept until the next daily publication: Paris midnight, plus a margin. */
export function secondsUntilNextParisDay(now = new Date()): number {
  const paris = new Date(now.toLocaleString('en-US', { timeZone: 'Europe/Paris' }));
  const midnight = new Date(paris);
  midnight.setHours(24, 5, 0, 0);
  return Math.max(60, Math.round((midnight.getTime() - paris.getTime()) / 1000));
}

export const fuelRoutes = [
  defineRoute<Record<string, never>, { department?: string }>({
    operationId: 'getFuelPrices',
    method: 'GET',
    path: '/v1/fuel/prices',
    tag: 'Data',
    summary: "The day's average fuel prices for France, and for a department with ?department=",
    description: 'From the official fuel-price open data; cached until the next daily publication. Billed as one "data.lookup" after the monthly free quota; 502 and nothing billed when the source fails.',
    scope: 'data:read',
    query: fuelPricesQuery,
    success: { status: 200, description: 'FuelPrices', schema: fuelPricesSchema },
    errors: [400, 401, 402, 403, 429, 500, 502],
    async handler(ctx, { query }) {
      const department = query.department ?? null;
      const { value } = await payThen(ctx, 'data.lookup', () =>
        cached(ctx.services.db, `fuel-prices:${department ?? 'FR'}`, secondsUntilNextParisDay(), () =>
          runWorkflow<FuelPriceLookup>(ctx, 'fuelPriceLookup', [department], 'fuel-prices', '60s', () => upstreamError('The fuel-price source is failing; nothing was billed. Please retry.')),
        ),
      );
      ctx.body = { unit: 'EUR/L', national: value.national, ...(value.department && department ? { department: { code: department, ...value.department } } : {}) };
    },
  }),
];
