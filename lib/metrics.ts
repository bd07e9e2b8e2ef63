import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { logger } from './logger.js';

/**
 * The Prometheus endpoint of a process (METRICS_PORT; off by default): `GET /metrics` on its own
 * port, never on the API's, so that it is reached from the cluster's network only. The registry
 * holds the process's own metrics (Node's heap, event loop lag, CPU, and what the API or the
 * worker registers); `extra` adds text from elsewhere (the worker: the Temporal SDK's metrics).
 */
export interface MetricsEndpoint {
  close(): Promise<void>;
}

/** A registry with Node's process metrics, prefixed like ours. */
export function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'svc_' });
  return registry;
}

/** Answered 200 as long as the process runs its event loop: the workers' liveness probe (the Helm chart). */
export const LIVENESS_PATH = '/live';

const answerAlive = (res: ServerResponse): void => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');

export async function serveMetrics(registry: Registry, port: number, extra?: () => Promise<string>, host = '0.0.0.0'): Promise<MetricsEndpoint> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    // A liveness probe: the process's event loop answers, and nothing else is asked (a slow
    // database must not get a worker restarted, as /metrics would with its gauges).
    if (req.method === 'GET' && path === LIVENESS_PATH) {
      answerAlive(res);
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics\n');
      return;
    }
    Promise.all([registry.metrics(), extra ? extra() : ''])
      .then(([ours, theirs]) => res.writeHead(200, { 'content-type': registry.contentType }).end(theirs ? `${ours}\n${theirs}` : ours))
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n');
      });
  });
  const bound = await listen(server, port, host);
  logger.info({ port: bound }, 'metrics on /metrics');
  return { close: () => close(server) };
}

/**
 * `GET /live` alone, on its own port (HEALTH_PORT): the workers' liveness probe whether or not
 * metrics are kept (a worker has no other port). A worker whose polling failed exits, and is
 * restarted for that; this answers for what an exit cannot show, an event loop that no longer turns.
 */
export async function serveLiveness(port: number, host = '0.0.0.0'): Promise<MetricsEndpoint> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === LIVENESS_PATH) answerAlive(res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end(`GET ${LIVENESS_PATH}\n`);
  });
  const bound = await listen(server, port, host);
  logger.info({ port: bound }, `liveness on ${LIVENESS_PATH}`);
  return { close: () => close(server) };
}

async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return (server.address() as AddressInfo).port;
}

const close = (server: Server): Promise<void> => new Promise<void>((resolve) => server.close(() => resolve()));
