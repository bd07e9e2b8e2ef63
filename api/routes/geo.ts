import { respondPaid } from '../billing/charge.js';
import { communes } from '../geo/communes.js';
import { citiesQuery, cityResultsSchema } from '../schemas/geo.js';
import { defineRoute } from './route.js';

export const geoRoutes = [
  defineRoute<Record<string, never>, { q: string; limit: number }>({
    operationId: 'searchCities',
    method: 'GET',
    path: '/v1/geo/cities',
    tag: 'Data',
    summary: 'Communes by postcode or name, from the official commune list (works offline)',
    description:
      'A 5-digit postcode returns every commune sharing it; otherwise commune names starting with q, accent- and case-insensitively, larger communes first, one result per postcode. ' +
      'Billed as one "data.lookup" after the monthly free quota.',
    scope: 'data:read',
    query: citiesQuery,
    success: { status: 200, description: 'CityResults', schema: cityResultsSchema },
    errors: [400, 401, 402, 403, 429, 500, 502],
    async handler(ctx, { query }) {
      await respondPaid(ctx, 'data.lookup', 200, { results: communes().search(query.q, query.limit) });
    },
  }),
];
