import type { Client } from '@temporalio/client';
import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { KeyMode, Scope } from '../domain/access/scopes.js';
import type { KeyGuard } from '../domain/access/guard.js';

/** What every request handler can reach: no globals, so tests can run several apps side by side. */
export interface Services {
  config: Config;
  db: Db;
  temporal: Client;
  guard: KeyGuard;
}

export interface AuthState {
  keyId: string;
  accountId: string;
  mode: KeyMode;
  scopes: Scope[];
  balanceCents: number;
}

declare module 'koa' {
  interface DefaultContext {
    services: Services;
  }
  interface DefaultState {
    auth?: AuthState;
    rawBody?: Buffer;
  }
  interface Request {
    body?: unknown;
  }
}
