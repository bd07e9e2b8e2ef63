import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { COMPANIES_QUEUE, FUEL_QUEUE, GEOCODING_QUEUE, ROUTING_QUEUE } from '../lib/task-queues.js';


/** Every partner call: a time limit, 3 attempts, no retry of a refused request. */
const onQueue = (taskQueue: string) =>
  proxyActivities<Activities>({
    taskQueue,
    startToCloseTimeout: '15s',
    scheduleToCloseTimeout: '30s',
    retry: { maximumAttempts: 3, initialInterval: '300ms', nonRetryableErrorTypes: ['PartnerRefused'] },
  });
const geocoding = onQueue(GEOCODING_QUEUE);
const companies = onQueue(COMPANIES_QUEUE);
const routing = onQueue(ROUTING_QUEUE);
const fuel = onQueue(FUEL_QUEUE);

/** GET /v1/geo/addresses: a short workflow around one partner call (timeout, retries, rate cap). */
export async function addressLookup(q: string, limit: number): Promise<Awaited<ReturnType<Activities['geocodeAddresses']>>> {
  return geocoding.geocodeAddresses(q, limit);
}

export async function companySearch(q: string, limit: number, only: 'active' | 'all'): Promise<Awaited<ReturnType<Activities['searchCompanies']>>> {
  return companies.searchCompanies(q, limit, only);
}

export async function companyProfileLookup(siret: string): Promise<Awaited<ReturnType<Activities['companyProfile']>>> {
  return companies.companyProfile(siret);
}

export type RoutePlace = { lon: number; lat: number } | { address: string };

export interface RouteLookup {
  from: { lon: number; lat: number; label: string } | null;
  to: { lon: number; lat: number; label: string } | null;
  route: Awaited<ReturnType<Activities['carRoute']>>;
}

/** GET /v1/routes: addresses are geocoded first (both at once), then the car route is asked for. */
export async function routeLookup(from: RoutePlace, to: RoutePlace, geometry: boolean): Promise<RouteLookup> {
  const locate = async (place: RoutePlace) => {
    if (!('address' in place)) return { ...place, label: `${place.lon},${place.lat}` };
    const [best] = await geocoding.geocodeAddresses(place.address, 1);
    return best ? { lon: best.lon, lat: best.lat, label: best.label } : null;
  };
  const [start, end] = await Promise.all([locate(from), locate(to)]);
  if (!start || !end) return { from: start, to: end, route: null };
  return { from: start, to: end, route: await routing.carRoute(start, end, geometry) };
}

export interface FuelPriceLookup {
  national: Awaited<ReturnType<Activities['fuelAverages']>>;
  department: Awaited<ReturnType<Activities['fuelAverages']>> | null;
}

/** GET /v1/fuel/prices: national averages, and the department's when one is asked for (both at once). */
export async function fuelPriceLookup(department: string | null): Promise<FuelPriceLookup> {
  const [national, local] = await Promise.all([fuel.fuelAverages(undefined), department ? fuel.fuelAverages(department) : Promise.resolve(null)]);
  return { national, department: local };
}
