import { payThen } from '../billing/charge.js';
import { fuelPrices } from '../lookups/lookup.js';
import { fuelPricesQuery, fuelPricesSchema } from '../schemas/fuel.js';
import { defineRoute } from './route.js';

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
      const value = await payThen(ctx, 'data.lookup', () => fuelPrices(ctx, department));
      ctx.body = { unit: 'EUR/L', national: value.national, ...(value.department && department ? { department: { code: department, ...value.department } } : {}) };
    },
  }),
];
