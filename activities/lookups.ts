import type { Config } from '../lib/config.js';
import type {
  AddressMatch,
  AddressResult,
  CompanyProfile,
  CompanySummary,
  Fuel,
  FuelAverages,
  Point,
  RouteResult,
  StationRecord,
} from '../domain/lookups/results.js';
import { matchAddress, searchAddresses } from './partners/geoplateforme.js';
import { partnerCall } from './partners/failures.js';
import { companyProfile, searchCompanies } from './partners/recherche-entreprises.js';
import { carRoute } from './partners/osrm.js';
import { fuelAverages, fuelStations, type StationArea } from './partners/prix-carburants.js';
import { communeKey } from '../lib/text.js';

/** One geocoder request of a mailing's address check, at most. */
const ADDRESS_CHECK_REQUEST_MS = 1500;

/** Public-data partner calls. They run on per-partner task queues, whose rate caps all workers together. */
export function lookupActivities(config: Config) {
  const { partners } = config;
  return {
    geocodeAddresses: (q: string, limit: number): Promise<AddressResult[]> =>
      partnerCall('geocoder', () => searchAddresses(partners.geocodingBaseUrl, q, limit, partners.timeoutMs)),
    /** The address check of a mailing: a shorter time limit, the mailing waits for it. */
    matchAddress: (q: string, limit: number): Promise<AddressMatch[]> =>
      partnerCall('geocoder', () => matchAddress(partners.geocodingBaseUrl, q, limit, Math.min(partners.timeoutMs, ADDRESS_CHECK_REQUEST_MS))),
    searchCompanies: (q: string, limit: number, only: 'active' | 'all'): Promise<CompanySummary[]> =>
      partnerCall('company directory', () => searchCompanies(partners.companiesBaseUrl, q, limit, only, partners.timeoutMs)),
    companyProfile: (siret: string): Promise<CompanyProfile | null> =>
      partnerCall('company directory', () => companyProfile(partners.companiesBaseUrl, siret, partners.timeoutMs)),
    fuelAverages: (department: string | undefined): Promise<FuelAverages> =>
      partnerCall('fuel prices', () => fuelAverages(partners.fuelBaseUrl, department, partners.timeoutMs)),
    /** A commune's centre (its town hall area) from the geocoder; null when it does not know the code. */
    communeCentre: async (insee: string, name: string): Promise<AddressResult | null> => {
      const [best] = await partnerCall('geocoder', () =>
        searchAddresses(partners.geocodingBaseUrl, name, 1, partners.timeoutMs, { type: 'municipality', citycode: insee }),
      );
      return best ?? null;
    },
    /**
     * Stations of an area selling `fuel`. For a commune, its postcodes are asked for and, where a
     * postcode is shared with other communes, only stations whose city is this commune are kept.
     */
    fuelStations: async (fuel: Fuel, area: StationArea, commune?: { name: string; sharedPostcodes: string[] }): Promise<StationRecord[]> => {
      const stations = await partnerCall('fuel prices', () => fuelStations(partners.fuelBaseUrl, fuel, area, partners.timeoutMs));
      if (!commune) return stations;
      const key = communeKey(commune.name);
      return stations.filter((s) => !commune.sharedPostcodes.includes(s.postcode) || communeKey(s.city).startsWith(key));
    },
    carRoute: (from: Point, to: Point, geometry: boolean): Promise<RouteResult | null> =>
      partnerCall('routing service', () => carRoute(partners.routingBaseUrl, from, to, geometry, partners.timeoutMs)),
  };
}
