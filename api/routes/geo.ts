import { payThen } from '../../domain/billing/charge.js';
import { communes } from '../../domain/geo/communes.js';
import { addressesQuery, addressResultsSchema, citiesQuery, cityResultsSchema } from '../schemas/geo.js';
import { partnerLookup } from '../../domain/lookups/lookup.js';
import { normalize } from '../../domain/search/normalize.js';
import { defineRoute } from './route.js';
import { caller, deps, respondPaid } from '../respond.js';

/** Addresses change rarely: geocoding answers are reused for 7 days. */
const GEOCODING_TTL_SECONDS = 7 * 24 * 3600;

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
  defineRoute<Record<string, never>, { q: string; limit: number }>({
    operationId: 'searchAddresses',
    method: 'GET',
    path: '/v1/geo/addresses',
    tag: 'Data',
    summary: 'Address autocomplete and geocoding (national address base)',
    description:
      "Runs the geocoder through a short workflow (timeout, retries, the partner's rate cap for all processes together); answers are cached 7 days. " +
      'A partner that keeps failing gives 502 upstream_error and nothing is billed. Billed as one "data.lookup" after the monthly free quota.',
    scope: 'data:read',
    query: addressesQuery,
    success: { status: 200, description: '{ results: [...] }', schema: addressResultsSchema },
    errors: [400, 401, 402, 403, 429, 500, 502],
    async handler(ctx, { query }) {
      const key = `geocoding:${query.limit}:${normalize(query.q)}`;
      const results = await payThen(deps(ctx), caller(ctx), 'data.lookup', () =>
        partnerLookup(deps(ctx), {
          key,
          ttlSeconds: GEOCODING_TTL_SECONDS,
          workflow: 'addressLookup',
          args: [query.q, query.limit],
          idPrefix: 'address-lookup',
          partner: 'address geocoder',
          breaker: 'geocoder',
        }),
      );
      ctx.body = { results };
    },
  }),
];
