import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type {
  AddressMatch,
  AddressResult,
  CompanyProfile,
  CompanySummary,
  FuelPriceLookup,
  RouteLookup,
  RoutePlace,
  StationSearch,
  StationSearchResult,
} from '../domain/lookups/results.js';
import { COMPANIES_QUEUE, FUEL_QUEUE, GEOCODING_QUEUE, ROUTING_QUEUE } from './contract.js';

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

/**
 * A mailing's address check waits for the geocoder: two short attempts, then the mailing goes on
 * without it (domain/mailings/address-check.ts), so a slow partner adds seconds, not minutes.
 */
const addressCheck = proxyActivities<Activities>({
  taskQueue: GEOCODING_QUEUE,
  startToCloseTimeout: '2s',
  scheduleToCloseTimeout: '3s',
  retry: { maximumAttempts: 2, initialInterval: '200ms', nonRetryableErrorTypes: ['PartnerRefused'] },
});

/** POST /v1/mailings: the recipient's address against the national address base, with scores. */
export async function addressMatchLookup(q: string, limit: number): Promise<AddressMatch[]> {
  return addressCheck.matchAddress(q, limit);
}

/** GET /v1/geo/addresses: a short workflow around one partner call (timeout, retries, rate cap). */
export async function addressLookup(q: string, limit: number): Promise<AddressResult[]> {
  return geocoding.geocodeAddresses(q, limit);
}

export async function companySearch(q: string, limit: number, only: 'active' | 'all'): Promise<CompanySummary[]> {
  return companies.searchCompanies(q, limit, only);
}

export async function companyProfileLookup(siret: string): Promise<CompanyProfile | null> {
  return companies.companyProfile(siret);
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

/** GET /v1/fuel/prices: national averages, and the department's when one is asked for (both at once). */
export async function fuelPriceLookup(department: string | null): Promise<FuelPriceLookup> {
  const [national, local] = await Promise.all([fuel.fuelAverages(undefined), department ? fuel.fuelAverages(department) : Promise.resolve(null)]);
  return { national, department: local };
}

/** Fewer stations than this in the commune, and the search widens around the centre. */
export const COMMUNE_MIN_STATIONS = 3;

/**
 * GET /v1/fuel/stations: around a point, or in a commune (its centre from the geocoder when no
 * point is given), widening to the radius when the commune has fewer than 3 stations.
 */
export async function fuelStationSearch(search: StationSearch): Promise<StationSearchResult> {
  const { fuel: kind, commune, radiusKm } = search;
  const given = search.centre ? { ...search.centre, label: `${search.centre.lat},${search.centre.lon}` } : null;
  if (!commune) return { centre: given, widened: false, stations: await fuel.fuelStations(kind, { near: { ...given!, radiusKm } }) };
  const [located, own] = await Promise.all([
    given ? Promise.resolve(null) : geocoding.communeCentre(commune.insee, commune.name),
    fuel.fuelStations(kind, { postcodes: commune.postcodes }, { name: commune.name, sharedPostcodes: commune.sharedPostcodes }),
  ]);
  const centre = given ?? (located ? { lat: located.lat, lon: located.lon, label: located.label } : null);
  if (own.length >= COMMUNE_MIN_STATIONS || !centre) return { centre, widened: false, stations: own };
  const around = await fuel.fuelStations(kind, { near: { lat: centre.lat, lon: centre.lon, radiusKm } });
  const seen = new Set(own.map((s) => s.id));
  return { centre, widened: true, stations: [...own, ...around.filter((s) => !seen.has(s.id))] };
}
