import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { BREAKER_PARTNERS, breakerStates } from '../domain/lookups/breaker.js';

const BREAKER_STATE_VALUE = { closed: 0, half_open: 1, open: 2 } as const;

/** Seconds: a cached read answers in about a millisecond, a mailing's creation in tens. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * What the API counts when METRICS_PORT is set (docs/deploy.md, "Metrics"). The route label is the
 * matched route's template (`/v1/mailings/:id`), never the path a client sent: its values stay few.
 */
export class ApiMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly refusals: Counter<'code'>;
  private readonly replays: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.requests = new Counter({
      name: 'svc_api_requests_total',
      help: 'API requests answered, by route and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'svc_api_request_duration_seconds',
      help: 'Time from a request to its answer, by route',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: 'svc_api_refusals_total',
      help: 'Calls refused for the balance (402) or a limit (429), by error code',
      labelNames: ['code'],
      registers,
    });
    this.replays = new Counter({ name: 'svc_api_idempotent_replays_total', help: 'POSTs answered with the stored answer of their Idempotency-Key', registers });
    // Read from the breakers at each scrape (domain/lookups/breaker.ts).
    new Gauge({
      name: 'svc_partner_breaker_state',
      help: "Each partner's circuit breaker in this process: 0 closed, 1 half-open (one call probes), 2 open (calls answered at once without it)",
      labelNames: ['partner'],
      registers,
      collect() {
        for (const [partner, { state }] of Object.entries(breakerStates())) this.set({ partner }, BREAKER_STATE_VALUE[state]);
      },
    });
    new Gauge({
      name: 'svc_partner_breaker_refused',
      help: 'Calls answered without the partner because its breaker was open, since the process started',
      labelNames: ['partner'],
      registers,
      collect() {
        const states = breakerStates();
        for (const partner of BREAKER_PARTNERS) this.set({ partner }, states[partner].refused);
      },
    });
  }

  request(method: string, route: string | undefined, status: number, ms: number): void {
    const labels = { method, route: route ?? 'unmatched' };
    this.requests.inc({ ...labels, status: String(status) });
    this.latency.observe(labels, ms / 1000);
  }

  /** A 402 or 429 answer, with its SPEC.md code (rate_limited, test_quota_exceeded, insufficient_balance…). */
  refusal(code: string): void {
    this.refusals.inc({ code });
  }

  replay(): void {
    this.replays.inc();
  }
}
