/**
 * What the public-data lookups answer: plain data owned by the domain. The partner clients
 * (activities/partners/) produce it, the lookup workflows pass it on, the API answers it.
 */

/** The fuels of SPEC.md. */
export type Fuel = 'gazole' | 'sp95' | 'sp95-e10' | 'sp98' | 'e85' | 'gplc';

/** One result of GET /v1/geo/addresses (SPEC.md "Address result"). */
export interface AddressResult {
  label: string;
  street: string;
  postcode: string;
  city: string;
  lat: number;
  lon: number;
}

/** A candidate of the address check (national address base), with the geocoder's own score. */
export interface AddressMatch {
  label: string;
  /** 0 to 1: how closely the base's address matches the query. */
  score: number;
  /** What matched: a house number, a street only, a locality (lieu-dit) or only the commune. */
  type: 'housenumber' | 'street' | 'locality' | 'municipality';
  housenumber: string | null;
  street: string | null;
  /** The address line as the base writes it ("20 Avenue de Ségur", or a locality's name). */
  name: string;
  postcode: string;
  city: string;
  citycode: string;
}

export interface Point {
  lon: number;
  lat: number;
}

export interface RouteResult {
  distanceMeters: number;
  durationSeconds: number;
  /** Simplified path ([lon, lat] pairs), when asked for. */
  geometry?: { type: 'LineString'; coordinates: [number, number][] };
}

export interface FuelAverages {
  /** Euros per liter, 3 decimals; null when no station sells it. */
  prices: Record<Fuel, number | null>;
  stations: number;
}

/** One station selling the asked fuel, as the open data describes it. */
export interface StationRecord {
  id: string;
  address: string;
  postcode: string;
  city: string;
  lat: number;
  lon: number;
  /** Euros per liter. */
  price: number;
  /** When the station last declared this price (ISO 8601). */
  priceUpdatedAt: string | null;
}

export interface CompanySummary {
  siren: string;
  name: string;
  acronym: string | null;
  status: 'active' | 'closed';
  headOffice: { siret: string; address: string; postcode: string; city: string };
  activity: string | null;
  establishments: number;
}

export interface CompanyProfile {
  siret: string;
  establishment: {
    siret: string;
    status: 'active' | 'closed';
    isHeadOffice: boolean;
    address: string;
    postcode: string;
    city: string;
    activity: string | null;
    createdOn: string | null;
  };
  company: {
    siren: string;
    name: string;
    acronym: string | null;
    status: 'active' | 'closed';
    category: string | null;
    legalForm: string | null;
    createdOn: string | null;
    establishments: number;
  };
  headOffice: { siret: string; address: string; postcode: string; city: string };
  activity: { code: string | null };
  headcount: { range: string | null };
  dataFreshness: string | null;
}

export type RoutePlace = { lon: number; lat: number } | { address: string };

export interface RouteLookup {
  from: { lon: number; lat: number; label: string } | null;
  to: { lon: number; lat: number; label: string } | null;
  route: RouteResult | null;
}

export interface FuelPriceLookup {
  national: FuelAverages;
  department: FuelAverages | null;
}

export interface StationSearch {
  fuel: Fuel;
  centre: { lat: number; lon: number } | null;
  commune: { insee: string; name: string; postcodes: string[]; sharedPostcodes: string[] } | null;
  radiusKm: number;
}

export interface StationSearchResult {
  centre: { lat: number; lon: number; label: string } | null;
  /** True when the commune had too few stations and the radius around the centre was added. */
  widened: boolean;
  stations: StationRecord[];
}
