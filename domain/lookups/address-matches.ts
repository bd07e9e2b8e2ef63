import { logger } from '../../lib/logger.js';
import { normalize } from '../../lib/text.js';
import type { Deps } from '../deps.js';
import { DomainError, upstreamError } from '../errors.js';
import { cached } from './cache.js';
import { partnerBreaker, throughBreaker, type BreakerAttempt } from './breaker.js';
import type { AddressMatch } from './results.js';

/** Addresses change rarely: the base's answers are reused for 7 days, as GET /v1/geo/addresses does. */
const ADDRESS_MATCH_TTL_SECONDS = 7 * 24 * 3600;
/** Candidates asked for: the best match and a few suggestions. */
const CANDIDATES = 5;
/**
 * How long a mailing waits for the address base, cache miss included: past it the mailing goes on
 * unchecked (docs/decisions.md, "The address check"). The workflow's own attempts end within 3 s.
 */
export const ADDRESS_CHECK_DEADLINE_MS = 3500;

/**
 * The answers this process used last, kept a few minutes: a sender mailing the same recipients
 * (an administration, a client base) skips even the cache's read. Bounded; the oldest goes first.
 */
const RECENT_MAX = 2000;
const RECENT_MS = 10 * 60_000;
const recent = new Map<string, { matches: AddressMatch[]; until: number }>();

function remember(key: string, matches: AddressMatch[]): AddressMatch[] {
  recent.delete(key);
  recent.set(key, { matches, until: Date.now() + RECENT_MS });
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
  return matches;
}

/**
 * The national address base's candidates for a whole address, best first (cache, else the short
 * `addressMatchLookup` workflow); null when the geocoder or the workflow service did not answer in
 * time: the caller decides what an unchecked address means. Only answers are kept (process memory a
 * few minutes, then the partner cache 7 days), never a failure.
 */
export async function addressMatches(deps: Deps, q: string): Promise<AddressMatch[] | null> {
  const key = `address-match:${normalize(q)}`;
  const remembered = recent.get(key);
  if (remembered && remembered.until > Date.now()) return remembered.matches;
  const failing = (): DomainError => upstreamError('The address geocoder is failing.');
  let attempt: BreakerAttempt | undefined;
  const lookup = cached(deps.db, key, ADDRESS_MATCH_TTL_SECONDS, () =>
    throughBreaker(
      partnerBreaker('geocoder', deps.config.partners.breaker),
      () => GEOCODER_BREAKER_OPEN,
      () => deps.workflows.lookups.run('addressMatchLookup', [q, CANDIDATES], { idPrefix: 'address-match', timeout: '5s', failure: failing }),
      (started) => (attempt = started),
    ),
  ).then(({ value }) => remember(key, value));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ADDRESS_CHECK_DEADLINE_MS)));
  try {
    const answer = await Promise.race([lookup, deadline]);
    if (answer === null) {
      // Past the deadline the partner has failed this mailing, whatever comes later. A late answer
      // still fills the cache for the next mailing; its failure is only logged.
      attempt?.failed();
      lookup.catch((error: unknown) => logger.warn({ err: error }, 'late address check failed'));
    }
    return answer;
  } catch (error) {
    // The geocoder failing (PartnerFailure), its breaker open, or Temporal unreachable
    // (Unavailable): go on unchecked. Anything else (our database down) is the mailing's failure too.
    if (error === GEOCODER_BREAKER_OPEN) return null;
    if (!(error instanceof DomainError)) throw error;
    logger.warn({ reason: error.message }, 'address check unavailable: the mailing goes on unchecked');
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The geocoder's breaker is open: the mailing goes on unchecked at once (not logged per mailing;
 * /health and the metrics say it). One instance, thrown each time and caught above by identity: a
 * new Error per refused mailing captured its stack (about 60 µs of the API's CPU a request, profiled).
 */
const GEOCODER_BREAKER_OPEN = new Error('the geocoder breaker is open');
