import { payThen } from '../../domain/billing/charge.js';
import { invalidRequest } from '../../domain/errors.js';
import { communes } from '../../domain/geo/communes.js';
import { crowFliesKm } from '../../domain/geo/distance.js';
import { fuelPrices, partnerLookup } from '../../domain/lookups/lookup.js';
import { fuelPricesQuery, fuelPricesSchema, fuelStationsQuery, fuelStationsSchema } from '../schemas/fuel.js';
import type { StationSearch } from '../../domain/lookups/results.js';
import { defineRoute } from './route.js';
import { caller, deps } from '../respond.js';

/** Stations update their prices through the day; the open data is refreshed every 10 minutes. */
const STATIONS_TTL_SECONDS = 10 * 60;

interface StationsQuery {
  fuel: StationSearch['fuel'];
  lat?: number | null;
  lon?: number | null;
  insee?: string;
  radiusKm: number;
  sort: 'price' | 'distance';
  limit: number;
}

/** The commune of an INSEE code, with the postcodes it shares with other communes. */
function communeOf(insee: string): StationSearch['commune'] {
  const commune = communes().withCode(insee);
  if (!commune)
    throw invalidRequest(
      `Invalid query parameter "insee": no current French commune has code ${insee} (arrondissements of Paris, Lyon and Marseille use the city's code).`,
      [{ in: 'query', field: 'insee', type: 'any.invalid' }],
    );
  const sharedPostcodes = commune.postcodes.filter((p) => communes().withPostcode(p).length > 1);
  return { insee: commune.code, name: commune.name, postcodes: commune.postcodes, sharedPostcodes };
}

export const fuelRoutes = [
  defineRoute<Record<string, never>, { department?: string }>({
    operationId: 'getFuelPrices',
    method: 'GET',
    path: '/v1/fuel/prices',
    tag: 'Data',
    summary: "The day's average fuel prices for France, and for a department with ?department=",
    description:
      'From the official fuel-price open data; cached until the next daily publication. Billed as one "data.lookup" after the monthly free quota; 502 and nothing billed when the source fails.',
    scope: 'data:read',
    query: fuelPricesQuery,
    success: { status: 200, description: 'FuelPrices', schema: fuelPricesSchema },
    errors: [400, 401, 402, 403, 429, 500, 502],
    async handler(ctx, { query }) {
      const department = query.department ?? null;
      const value = await payThen(deps(ctx), caller(ctx), 'data.lookup', () => fuelPrices(deps(ctx), department));
      ctx.body = {
        unit: 'EUR/L',
        national: value.national,
        ...(value.department && department ? { department: { code: department, ...value.department } } : {}),
      };
    },
  }),
  defineRoute<Record<string, never>, StationsQuery>({
    operationId: 'searchFuelStations',
    method: 'GET',
    path: '/v1/fuel/stations',
    tag: 'Data',
    summary: 'Fuel stations around a point or in a commune, cheapest or nearest first',
    description:
      "From the official instantaneous fuel-price data (answers reused 10 minutes). With insee, the commune's stations; when it has fewer than 3, the search widens to radiusKm around lat/lon, or around the commune centre. " +
      'Distances are as the crow flies. Billed as one "data.lookup" after the monthly free quota; 502 and nothing billed when the source fails.',
    scope: 'data:read',
    query: fuelStationsQuery,
    success: { status: 200, description: 'FuelStations', schema: fuelStationsSchema },
    errors: [400, 401, 402, 403, 429, 500, 502],
    async handler(ctx, { query }) {
      const commune = query.insee ? communeOf(query.insee) : null;
      const centre = typeof query.lat === 'number' && typeof query.lon === 'number' ? { lat: query.lat, lon: query.lon } : null;
      const search: StationSearch = { fuel: query.fuel, centre, commune, radiusKm: query.radiusKm };
      const found = await payThen(deps(ctx), caller(ctx), 'data.lookup', () =>
        partnerLookup(deps(ctx), {
          key: `fuel-stations:${JSON.stringify(search)}`,
          ttlSeconds: STATIONS_TTL_SECONDS,
          workflow: 'fuelStationSearch',
          args: [search],
          idPrefix: 'fuel-stations',
          partner: 'fuel-price source',
          breaker: 'fuel',
        }),
      );
      const at = found.centre;
      const stations = found.stations.map(({ price, ...s }) => ({
        ...s,
        distanceKm: at ? Math.round(crowFliesKm(at, s) * 10) / 10 : null,
        priceEurPerLiter: price,
      }));
      const far = (km: number | null): number => km ?? Number.POSITIVE_INFINITY;
      stations.sort((a, b) =>
        query.sort === 'price'
          ? a.priceEurPerLiter - b.priceEurPerLiter || far(a.distanceKm) - far(b.distanceKm)
          : far(a.distanceKm) - far(b.distanceKm) || a.priceEurPerLiter - b.priceEurPerLiter,
      );
      ctx.body = {
        fuel: query.fuel,
        unit: 'EUR/L',
        sort: query.sort,
        radiusKm: query.radiusKm,
        centre: at,
        commune: commune ? { insee: commune.insee, name: commune.name } : null,
        widened: found.widened,
        stations: stations.slice(0, query.limit),
      };
    },
  }),
];
