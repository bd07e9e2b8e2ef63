import { payThen } from '../../domain/billing/charge.js';
import { notFound } from '../../domain/errors.js';
import { partnerLookup } from '../../domain/lookups/lookup.js';
import { normalize } from '../../domain/search/normalize.js';
import { routeQuery, routeResultSchema } from '../schemas/car-routes.js';
import type { RoutePlace } from '../../domain/lookups/results.js';
import { defineRoute } from './route.js';
import { caller, deps } from '../respond.js';

const ROUTE_TTL_SECONDS = 24 * 3600;
const COORDINATES = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,2}(?:\.\d+)?)\s*$/;

/** "lon,lat" within range is a point; anything else is an address to geocode. */
function place(text: string): RoutePlace {
  const match = COORDINATES.exec(text);
  if (match) {
    const lon = Number(match[1]);
    const lat = Number(match[2]);
    if (Math.abs(lon) <= 180 && Math.abs(lat) <= 90) return { lon, lat };
  }
  return { address: text.trim() };
}

export const carRouteRoutes = [
  defineRoute<Record<string, never>, { from: string; to: string; geometry: boolean }>({
    operationId: 'getRoute',
    method: 'GET',
    path: '/v1/routes',
    tag: 'Data',
    summary: 'Car route distance and duration between two addresses or points',
    description:
      'Addresses are geocoded first. 404 when an address is not found or no road route exists. Billed as one "data.lookup.premium" after the monthly free quota; 502 and nothing billed when a partner fails.',
    scope: 'data:read',
    query: routeQuery,
    success: { status: 200, description: 'RouteResult', schema: routeResultSchema },
    errors: [400, 401, 402, 403, 404, 429, 500, 502],
    async handler(ctx, { query }) {
      const from = place(query.from);
      const to = place(query.to);
      const key = `route:${query.geometry}:${normalize(query.from)}|${normalize(query.to)}`;
      ctx.body = await payThen(deps(ctx), caller(ctx), 'data.lookup.premium', async () => {
        const value = await partnerLookup(deps(ctx), {
          key,
          ttlSeconds: ROUTE_TTL_SECONDS,
          workflow: 'routeLookup',
          args: [from, to, query.geometry],
          idPrefix: 'route-lookup',
          partner: 'routing service',
          breaker: 'routing',
        });
        if (!value.from) throw notFound(`Address not found: "${query.from}".`);
        if (!value.to) throw notFound(`Address not found: "${query.to}".`);
        if (!value.route) throw notFound('No road route between these places.');
        const { distanceMeters, durationSeconds, geometry } = value.route;
        return {
          from: value.from,
          to: value.to,
          distanceMeters,
          distanceKm: Math.round(distanceMeters / 100) / 10,
          durationSeconds,
          durationMinutes: Math.round(durationSeconds / 60),
          ...(geometry ? { geometry } : {}),
        };
      });
    },
  }),
];
