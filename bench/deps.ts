import type { Client } from '@temporalio/client';
import type { Db } from '../db/knex.js';
import type { Config } from '../lib/config.js';

/** What the parts of the bench that need a stack get: its own Postgres and Temporal, an account with a sandbox key. */
export interface BenchDeps {
  config: Config;
  db: Db;
  client: Client;
  databaseUrl: string;
  temporalAddress: string;
  testKey: string;
  accountId: string;
}
