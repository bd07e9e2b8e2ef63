import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../api/app.js';
import { answerClientError } from '../api/client-errors.js';
import type { Services } from '../api/context.js';
import { KeyGuard } from '../api/key-guard.js';
import { MailingCache } from '../api/caches/mailing-cache.js';
import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { Client } from '@temporalio/client';
import { domainDeps } from '../temporal/domain-deps.js';
import { HealthCheck } from '../domain/health.js';
import { createWebApp } from '../web/app.js';
import { createMailer } from '../lib/mailer.js';
import { RequestLogBuffer } from '../api/request-log-buffer.js';
import { OutboxSender } from '../web/outbox-sender.js';
import { purgeSpentBudgets } from '../domain/developers/throttle.js';
import { logger } from '../lib/logger.js';
import { processRegistry, serveMetrics } from '../lib/metrics.js';
import { ApiMetrics } from '../api/metrics.js';

/** The developer space's prefix: those requests go to its own app (web/), never through the API's chain. */
const isDashboard = (url: string | undefined): boolean => url === '/dashboard' || /^\/dashboard[/?]/.test(url ?? '');

export interface RunningApi {
  server: Server;
  url: string;
  /**
   * Stops accepting connections and closes the pools. `graceMs` (SHUTDOWN_GRACE in deployed
   * processes): how long requests in flight may take to finish; 0 cuts every connection at once.
   */
  close(graceMs?: number): Promise<void>;
}

export interface ApiDeps {
  config: Config;
  db: Db;
  databaseUrl: string;
  temporal: Client;
}

/** Serves the API and the developer space (web/, under /dashboard) on `port` (0 picks a free one): the process's one composition root. */
export async function startApiServer(deps: ApiDeps, port: number, host = '0.0.0.0'): Promise<RunningApi> {
  const guard = new KeyGuard(deps.db, deps.databaseUrl, deps.config.failedAuthPerMinute);
  await guard.start();
  const mailingCache = new MailingCache(deps.db);
  await mailingCache.start(deps.databaseUrl);
  const domain = domainDeps(deps.db, deps.config, deps.temporal);
  const requestLog = new RequestLogBuffer(deps.db);
  requestLog.start();
  // Counted only when scraped somewhere: without METRICS_PORT no request pays for it.
  const registry = deps.config.metricsPort === undefined ? undefined : processRegistry();
  const metrics = registry && new ApiMetrics(registry);
  const app = createApp({
    config: deps.config,
    db: deps.db,
    guard,
    domain,
    health: new HealthCheck(domain),
    mailings: mailingCache,
    requestLog,
    metrics,
  } satisfies Services);
  const metricsEndpoint = registry && (await serveMetrics(registry, deps.config.metricsPort!));
  const mailer = createMailer(deps.config);
  const outbox = new OutboxSender(deps.db, deps.config.secretKey, mailer);
  outbox.start();
  const purge = setInterval(
    () => void purgeSpentBudgets(deps.db).catch((error: unknown) => logger.warn({ err: error }, 'purge of spent budgets failed')),
    60_000,
  );
  purge.unref();
  // Emailed links come from the configuration, never from a request's Host header.
  let origin = deps.config.dashboard.publicUrl;
  const publicUrl = (): string => {
    if (!origin) throw new Error('PUBLIC_URL must be set outside local runs (the developer space emails links)');
    return origin;
  };
  const web = createWebApp({ config: deps.config, db: deps.db, mailer, domain, outbox, publicUrl }).callback();
  const api = app.callback();
  // While draining, answers close their connection (those in flight too), so keep-alive clients
  // reconnect elsewhere rather than reuse a connection about to close.
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.on('close', () => inFlight.delete(res));
    return isDashboard(req.url) ? web(req, res) : api(req, res);
  });
  // Slightly above common load-balancer idle timeouts, so they close first.
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  if (deps.config.appEnv === 'local') origin ??= `http://localhost:${bound}`;
  return {
    server,
    url: `http://localhost:${bound}`,
    close: (graceMs = 0) =>
      new Promise<void>((resolve) => {
        clearInterval(purge);
        // No new connections from here; requests in flight get `graceMs` to finish (keep-alive
        // connections are closed as soon as they are idle), then whatever is left is cut.
        draining = graceMs > 0;
        if (draining) for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        const sweeper = draining ? setInterval(() => server.closeIdleConnections(), 100) : undefined;
        const cutter = draining
          ? setTimeout(() => {
              clearInterval(sweeper);
              logger.warn({ graceMs }, 'API: requests still in flight after the shutdown grace are cut');
              server.closeAllConnections();
            }, graceMs)
          : undefined;
        // The request log's last rows are written before the pools go (its flush never rejects).
        server.close(() => {
          clearInterval(sweeper);
          clearTimeout(cutter);
          void Promise.all([guard.stop(), mailingCache.stop(), requestLog.stop(), outbox.stop(), metricsEndpoint?.close()]).then(() => {
            mailer.close();
            resolve();
          });
        });
        if (draining) server.closeIdleConnections();
        else server.closeAllConnections();
      }),
  };
}
