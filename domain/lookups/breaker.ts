import { PartnerFailure } from '../errors.js';

/**
 * A circuit breaker per partner on the request path (the geocoder, the company directory, the
 * route planner, the fuel prices). Without it, a partner that refuses or hangs costs every request
 * that needs it a full wait (about 1 s refused, 3.5 s hanging for a mailing's address check) and
 * nothing remembers the failures. After PARTNER_BREAKER_FAILURES failures in a row (an error or a
 * deadline passed) it opens: callers are answered at once as if the partner had failed (a
 * mailing goes on with `address_check_unavailable`, a lookup answers 502), for
 * PARTNER_BREAKER_COOL_DOWN. Then one request at a time probes (half-open): an answer closes it,
 * a failure opens it again for another cool-down. Answers from the caches never touch it.
 * One per API process: each process learns of an outage by itself, after a few requests.
 */
export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerSettings {
  /** Failures in a row that open the breaker. */
  failures: number;
  coolDownMs: number;
}

/** One call let through: the first outcome reported counts, later ones are ignored. */
export interface BreakerAttempt {
  /** The partner answered. */
  succeeded(): void;
  /** The partner failed or did not answer in time. */
  failed(): void;
  /** Neither (our own outage, a caller gone): says nothing about the partner; a probe's place is freed. */
  abandoned(): void;
}

export class CircuitBreaker {
  private consecutiveFailures = 0;
  private openedAt: number | undefined;
  private probing = false;
  /** Calls refused while open, since the process started (the metrics read it). */
  refused = 0;

  constructor(
    readonly partner: string,
    private readonly settings: BreakerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): BreakerState {
    if (this.openedAt === undefined) return 'closed';
    return this.now() - this.openedAt < this.settings.coolDownMs ? 'open' : 'half_open';
  }

  /** A call may go (report its outcome on what is returned), or undefined: answer without the partner. */
  attempt(): BreakerAttempt | undefined {
    const state = this.state;
    if (state === 'open' || (state === 'half_open' && this.probing)) {
      this.refused++;
      return undefined;
    }
    const probe = state === 'half_open';
    if (probe) this.probing = true;
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      if (probe) this.probing = false;
      outcome();
    };
    return {
      succeeded: () =>
        settle(() => {
          this.consecutiveFailures = 0;
          this.openedAt = undefined;
        }),
      failed: () =>
        settle(() => {
          this.consecutiveFailures++;
          // A failed probe opens it again at once; closed, it takes the run of failures.
          if (probe || this.consecutiveFailures >= this.settings.failures) this.openedAt = this.now();
        }),
      abandoned: () => settle(() => undefined),
    };
  }
}

/** The partners called on the request path, by the name /health and the metrics give them. */
export const BREAKER_PARTNERS = ['geocoder', 'companyDirectory', 'routing', 'fuel'] as const;
export type BreakerPartner = (typeof BREAKER_PARTNERS)[number];

const breakers = new Map<BreakerPartner, CircuitBreaker>();

/** This process's breaker of `partner`, made at its first use with the process's settings. */
export function partnerBreaker(partner: BreakerPartner, settings: BreakerSettings): CircuitBreaker {
  let breaker = breakers.get(partner);
  if (!breaker) {
    breaker = new CircuitBreaker(partner, settings);
    breakers.set(partner, breaker);
  }
  return breaker;
}

/** Every partner's state in this process (closed for one never called), for /health and the metrics. */
export function breakerStates(): Record<BreakerPartner, { state: BreakerState; refused: number }> {
  const states = {} as Record<BreakerPartner, { state: BreakerState; refused: number }>;
  for (const partner of BREAKER_PARTNERS) {
    const breaker = breakers.get(partner);
    states[partner] = { state: breaker?.state ?? 'closed', refused: breaker?.refused ?? 0 };
  }
  return states;
}

/**
 * `call` through `breaker`: refused at once with `refusal()` while it is open, its outcome reported
 * otherwise (a PartnerFailure, which a lookup workflow that failed or timed out becomes, counts
 * against the partner; anything else, such as Temporal unreachable, says nothing of it).
 * `onAttempt` gets the attempt, for a caller that stops waiting before the call ends.
 */
export async function throughBreaker<T>(
  breaker: CircuitBreaker,
  refusal: () => Error,
  call: () => Promise<T>,
  onAttempt?: (attempt: BreakerAttempt) => void,
): Promise<T> {
  const attempt = breaker.attempt();
  if (!attempt) throw refusal();
  onAttempt?.(attempt);
  try {
    const value = await call();
    attempt.succeeded();
    return value;
  } catch (error) {
    if (error instanceof PartnerFailure) attempt.failed();
    else attempt.abandoned();
    throw error;
  }
}
