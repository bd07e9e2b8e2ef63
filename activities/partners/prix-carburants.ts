import got from 'got';
import type { Fuel, FuelAverages, StationRecord } from '../../domain/lookups/results.js';
import { PartnerResponseError } from './failures.js';

/** The fuels of SPEC.md and their columns in the official instantaneous fuel-price data. */
export const FUELS = {
  gazole: 'gazole_prix',
  sp95: 'sp95_prix',
  'sp95-e10': 'e10_prix',
  sp98: 'sp98_prix',
  e85: 'e85_prix',
  gplc: 'gplc_prix',
} as const satisfies Record<Fuel, string>;

const DATASET = 'prix-des-carburants-en-france-flux-instantane-v2';

/**
 * Average prices from the official fuel-price open data (prix-carburants, Opendatasoft API):
 * one aggregate query, for France or one department.
 */
export async function fuelAverages(baseUrl: string, department: string | undefined, timeoutMs: number): Promise<FuelAverages> {
  const select = [...Object.entries(FUELS).map(([fuel, column]) => `avg(${column}) as ${fuel.replace('-', '_')}`), 'count(*) as stations'].join(', ');
  const body = await got(`${baseUrl.replace(/\/$/, '')}/api/explore/v2.1/catalog/datasets/${DATASET}/records`, {
    searchParams: { select, ...(department ? { where: `code_departement="${department}"` } : {}) },
    timeout: { request: timeoutMs },
    retry: { limit: 0 },
  }).json<{ results?: Record<string, unknown>[] }>();
  const row = body?.results?.[0];
  if (!row || typeof row.stations !== 'number') throw new PartnerResponseError('fuel prices answered without an aggregate');
  const price = (value: unknown): number | null => (typeof value === 'number' ? Math.round(value * 1000) / 1000 : null);
  return {
    prices: Object.fromEntries(Object.keys(FUELS).map((fuel) => [fuel, price(row[fuel.replace('-', '_')])])) as Record<Fuel, number | null>,
    stations: row.stations,
  };
}

/** Where to look: around a point, or at the stations of some postcodes. */
export type StationArea = { near: { lat: number; lon: number; radiusKm: number } } | { postcodes: string[] };

const STATIONS_PAGE = 100;
/** Opendatasoft stops paging at offset 10,000; a 30 km radius holds far fewer stations. */
const STATIONS_MAX = 2000;

function whereClause(fuel: Fuel, area: StationArea): string {
  const sells = `${FUELS[fuel]} is not null`;
  if ('near' in area) {
    const { lon, lat, radiusKm } = area.near;
    return `within_distance(geom, geom'POINT(${lon} ${lat})', ${radiusKm}km) and ${sells}`;
  }
  return `cp in (${area.postcodes.map((p) => `"${p}"`).join(', ')}) and ${sells}`;
}

/**
 * Every station of an area that sells `fuel`, cheapest first (records API, paged). Sorting by
 * distance and the final cut happen in the service, which knows the centre.
 */
export async function fuelStations(baseUrl: string, fuel: Fuel, area: StationArea, timeoutMs: number, pageSize = STATIONS_PAGE): Promise<StationRecord[]> {
  const column = FUELS[fuel];
  const updated = column.replace(/_prix$/, '_maj');
  const stations: StationRecord[] = [];
  for (let offset = 0; offset < STATIONS_MAX; offset += pageSize) {
    const body = await got(`${baseUrl.replace(/\/$/, '')}/api/explore/v2.1/catalog/datasets/${DATASET}/records`, {
      searchParams: {
        select: `id,adresse,cp,ville,geom,${column},${updated}`,
        where: whereClause(fuel, area),
        order_by: `${column} asc`,
        limit: pageSize,
        offset,
      },
      timeout: { request: timeoutMs },
      retry: { limit: 0 },
    }).json<{ total_count?: unknown; results?: Record<string, unknown>[] }>();
    if (typeof body?.total_count !== 'number' || !Array.isArray(body.results))
      throw new PartnerResponseError('fuel stations answered without total_count and results');
    for (const row of body.results) {
      const geom = row.geom as { lat?: unknown; lon?: unknown } | null;
      const price = row[column];
      if (typeof geom?.lat !== 'number' || typeof geom.lon !== 'number' || typeof price !== 'number') continue; // a station without position or price cannot be ranked
      stations.push({
        id: String(row.id),
        address: typeof row.adresse === 'string' ? row.adresse : '',
        postcode: typeof row.cp === 'string' ? row.cp : '',
        city: typeof row.ville === 'string' ? row.ville : '',
        lat: geom.lat,
        lon: geom.lon,
        price,
        priceUpdatedAt: typeof row[updated] === 'string' ? new Date(row[updated] as string).toISOString() : null,
      });
    }
    if (offset + pageSize >= body.total_count || body.results.length < pageSize) break;
  }
  return stations;
}
