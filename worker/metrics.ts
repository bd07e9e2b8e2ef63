import { Counter, Gauge } from 'prom-client';
import type { Db } from '../db/knex.js';
import type { Config, WorkerRole } from '../lib/config.js';
import { processRegistry, serveMetrics, type MetricsEndpoint } from '../lib/metrics.js';
import { freePort } from '../lib/net/ports.js';
import { countMailingsByStatus } from '../domain/mailings/listing.js';
import { countUndeliveredDeliveries } from '../domain/webhooks/deliveries.js';
import type { OperatorCounters } from '../activities/mailings.js';

export interface WorkerMetrics {
  /** Where the Temporal SDK's Prometheus exporter binds (Runtime telemetry options), on the loopback. */
  sdkBindAddress: string;
  counters: OperatorCounters;
  endpoint: MetricsEndpoint;
}

/**
 * The worker's metrics on METRICS_PORT (docs/deploy.md, "Metrics"): the Temporal SDK's (task
 * slots, poll and schedule-to-start latencies, workflow task failures, sticky cache…, prefixed
 * `temporal_`), served through ours from its exporter on the loopback; filing retries and operator
 * errors counted by the activities; and, where the `mailings` role runs, mailings by status and
 * webhook deliveries not delivered, read from PostgreSQL at each scrape (two short queries).
 */
export async function startWorkerMetrics(config: Config, db: Db, roles: WorkerRole[]): Promise<WorkerMetrics> {
  const registry = processRegistry();
  const registers = [registry];
  const filingRetries = new Counter({
    name: 'svc_filing_retries_total',
    help: 'Filing attempts that failed and are tried again, by reason (unavailable, pending, error)',
    labelNames: ['reason'],
    registers,
  });
  const operatorErrors = new Counter({
    name: 'svc_operator_errors_total',
    help: 'Calls to the postal operator that failed (refusals and "not yet" apart), by operator and call',
    labelNames: ['operator', 'call'],
    registers,
  });
  if (roles.includes('mailings')) {
    new Gauge({
      name: 'svc_mailings',
      help: 'Mailings by status, live and test apart',
      labelNames: ['status', 'mode'],
      registers,
      async collect() {
        this.reset();
        for (const { status, test, count } of await countMailingsByStatus(db)) this.set({ status, mode: test ? 'test' : 'live' }, count);
      },
    });
    new Gauge({
      name: 'svc_webhook_deliveries_undelivered',
      help: 'Webhook deliveries not delivered: pending (not attempted yet), retrying, abandoned (kept 30 days)',
      labelNames: ['state'],
      registers,
      async collect() {
        const counts = await countUndeliveredDeliveries(db);
        for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
      },
    });
  }
  const sdkPort = await freePort();
  const sdkMetrics = async (): Promise<string> => {
    // Empty until the runtime has started its exporter (the first connection).
    const res = await fetch(`http://127.0.0.1:${sdkPort}/metrics`).catch(() => undefined);
    return res?.ok ? res.text() : '';
  };
  const endpoint = await serveMetrics(registry, config.metricsPort!, sdkMetrics);
  return {
    sdkBindAddress: `127.0.0.1:${sdkPort}`,
    counters: {
      filingRetry: (reason) => filingRetries.inc({ reason }),
      operatorError: (operator, call) => operatorErrors.inc({ operator, call }),
    },
    endpoint,
  };
}
