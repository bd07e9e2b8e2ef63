import got from 'got';
import { PartnerResponseError } from './geoplateforme.js';

/** The fuels of SPEC.md and their columns in the official instantaneous fuel-price data. */
export const FUELS = { gazole: 'gazole_prix', sp95: 'sp95_prix', 'sp95-e10': 'e10_prix', sp98: 'sp98_prix', e85: 'e85_prix', gplc: 'gplc_prix' } as const;
export type Fuel = keyof typeof FUELS;

export interface FuelAverages {
  /** Euros per liter, 3 decimals; null when no station sells it. */
  prices: Record<Fuel, number | null>;
  stations: number;
}

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
