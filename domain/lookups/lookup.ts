import { upstreamError } from '../errors.js';
import type { Deps } from '../deps.js';
import type { LookupName, LookupWorkflows } from './port.js';
import type { FuelPriceLookup } from './results.js';
import { cached } from './cache.js';
import { partnerBreaker, throughBreaker, type BreakerPartner } from './breaker.js';

export interface PartnerLookup<N extends LookupName> {
  /** Cache key, shared by every API process. */
  key: string;
  ttlSeconds: number;
  workflow: N;
  args: Parameters<LookupWorkflows[N]>;
  /** Prefix of the workflow id, e.g. "company-search". */
  idPrefix: string;
  /** Named in the 502 when the partner keeps failing, e.g. "company directory". */
  partner: string;
  /** Whose circuit breaker the call goes through (domain/lookups/breaker.ts). */
  breaker: BreakerPartner;
}

/**
 * A partner answer: from the Postgres cache, or from a short lookup workflow through the partner's
 * circuit breaker (502 when it fails, and at once while the breaker is open).
 */
export async function partnerLookup<N extends LookupName>(deps: Deps, lookup: PartnerLookup<N>): Promise<Awaited<ReturnType<LookupWorkflows[N]>>> {
  const failing = () => upstreamError(`The ${lookup.partner} is failing; nothing was billed. Please retry.`);
  const { value } = await cached(deps.db, lookup.key, lookup.ttlSeconds, () =>
    throughBreaker(partnerBreaker(lookup.breaker, deps.config.partners.breaker), failing, () =>
      deps.workflows.lookups.run(lookup.workflow, lookup.args, { idPrefix: lookup.idPrefix, failure: failing }),
    ),
  );
  return value;
}

/** Fuel prices are kept until the next daily publication: Paris midnight, plus a margin. */
export function secondsUntilNextParisDay(now = new Date()): number {
  const paris = new Date(now.toLocaleString('en-US', { timeZone: 'Europe/Paris' }));
  const midnight = new Date(paris);
  midnight.setHours(24, 5, 0, 0);
  return Math.max(60, Math.round((midnight.getTime() - paris.getTime()) / 1000));
}

/** The day's average fuel prices for France, and for a department when one is given. */
export function fuelPrices(deps: Deps, department: string | null): Promise<FuelPriceLookup> {
  return partnerLookup(deps, {
    key: `fuel-prices:${department ?? 'FR'}`,
    ttlSeconds: secondsUntilNextParisDay(),
    workflow: 'fuelPriceLookup',
    args: [department],
    idPrefix: 'fuel-prices',
    partner: 'fuel-price source',
    breaker: 'fuel',
  });
}
