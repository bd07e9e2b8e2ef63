/**
 * The domain's workflow ports (`Workflows` of domain/deps.ts) on one Temporal client: one adapter
 * per port, sharing the client's deadline scope (./calls.ts).
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../lib/config.js';
import type { Deps, Workflows } from '../domain/deps.js';
import { temporalAccess } from './access.js';
import { temporalBatches } from './batches.js';
import { temporalBilling } from './billing.js';
import { temporalCalls } from './calls.js';
import { temporalHealth } from './health.js';
import { temporalMailings } from './mailings.js';
import { temporalAi, temporalLetters, temporalLookups, temporalSearch, temporalSenders } from './short-workflows.js';
import { temporalWebhooks } from './webhooks.js';

/** The workflows of the domain, on a Temporal client. */
export function temporalWorkflows(client: Client, config: Config): Workflows {
  const calls = temporalCalls(client, config);
  return {
    mailings: temporalMailings(calls),
    batches: temporalBatches(calls),
    webhooks: temporalWebhooks(calls),
    access: temporalAccess(calls),
    billing: temporalBilling(calls),
    lookups: temporalLookups(calls),
    ai: temporalAi(calls),
    search: temporalSearch(calls),
    letters: temporalLetters(calls),
    senders: temporalSenders(calls),
    health: temporalHealth(calls),
  };
}

/** The domain's dependencies on a database, a configuration and a Temporal client. */
export function domainDeps(db: Deps['db'], config: Config, client: Client): Deps {
  return { db, config, workflows: temporalWorkflows(client, config) };
}
