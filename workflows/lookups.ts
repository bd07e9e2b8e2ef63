import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { COMPANIES_QUEUE, GEOCODING_QUEUE } from '../lib/task-queues.js';


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
