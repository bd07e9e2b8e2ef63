import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { KeyMode, Scope } from '../domain/access/scopes.js';
import type { KeyGuard } from './key-guard.js';
import type { Deps } from '../domain/deps.js';
import type { HealthCheck } from '../domain/health.js';
import type { MailingCache } from './caches/mailing-cache.js';
import type { KeyRecord } from '../domain/access/keys.js';
import type { PostalSettings } from '../domain/access/postal-settings.js';
import type { AddressCheck } from '../domain/mailings/request.js';
import type { RequestLogBuffer } from './request-log-buffer.js';
import type { ApiMetrics } from './metrics.js';

/** What every request handler can reach: no globals, so tests can run several apps side by side. */
export interface Services {
  config: Config;
  db: Db;
  guard: KeyGuard;
  /** What the domain's operations are called with (the same object for every request). */
  domain: Deps;
  /** GET /health, shared for a few seconds by every caller. */
  health: HealthCheck;
  /** The mailings clients read, kept until they change. */
  mailings: MailingCache;
  /** This process's request log rows, written to Postgres in batches. */
  requestLog: RequestLogBuffer;
  /** Prometheus counters, kept only with METRICS_PORT. */
  metrics?: ApiMetrics;
}

export interface AuthState {
  keyId: string;
  accountId: string;
  mode: KeyMode;
  scopes: Scope[];
  balanceCents: number;
  addressCheckDefault: AddressCheck;
  postalSettings: PostalSettings;
}

declare module 'koa' {
  interface DefaultContext {
    services: Services;
  }
  interface DefaultState {
    auth?: AuthState;
    /** The key the call was made with, once found (even if then refused): its request log row. */
    caller?: KeyRecord;
    rawBody?: Buffer;
    /** The answer's headers until it is written (api/fast-path.ts): names and values in turn. */
    headers?: string[];
  }
  interface Request {
    body?: unknown;
  }
}
