import type { ShortWorkflowRunner } from '../short-workflows.js';
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
} from './results.js';

/** The partner lookups: short workflows around partner calls (workflows/lookups.ts). */
export interface LookupWorkflows {
  addressLookup(q: string, limit: number): Promise<AddressResult[]>;
  addressMatchLookup(q: string, limit: number): Promise<AddressMatch[]>;
  companySearch(q: string, limit: number, only: 'active' | 'all'): Promise<CompanySummary[]>;
  companyProfileLookup(siret: string): Promise<CompanyProfile | null>;
  routeLookup(from: RoutePlace, to: RoutePlace, geometry: boolean): Promise<RouteLookup>;
  fuelPriceLookup(department: string | null): Promise<FuelPriceLookup>;
  fuelStationSearch(search: StationSearch): Promise<StationSearchResult>;
}
export type LookupName = keyof LookupWorkflows;

/** The lookups as the domain runs them (temporal/short-workflows.ts). */
export type LookupPort = ShortWorkflowRunner<LookupWorkflows>;
