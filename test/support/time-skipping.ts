import { loadConfig, type Config } from '../../lib/config.js';
import { createDb, type Db } from '../../db/knex.js';
import { createWorker, type RunnableWorker } from '../../worker/worker.js';
import { startApiServer, type RunningApi } from '../../server/server.js';
import { startTimeSkipping as startServer, type TimeSkippingEnv } from './time-skipping-server.js';
import { stack } from './stack.js';

export type { TimeSkippingEnv } from './time-skipping-server.js';

/** The time-skipping server for the end-to-end tests: its output beside the test stack's. */
export const startTimeSkipping = (): Promise<TimeSkippingEnv> => startServer(stack().dataDir);

/**
 * Our own parts on the time-skipping server, as in production: the worker of worker/worker.ts
 * (workflows bundled from workflows/, activities of activities/index.ts, the bundled operator
 * simulator) and the API, on the test stack's Postgres, each with its own pool. `knobs` are
 * environment variables for their configuration (e.g. OPERATOR_FAIL_FIRST_FILINGS); the suite's
 * compressed webhook schedule is not applied: the real defaults are.
 */
export interface TimeSkippingServices {
  config: Config;
  worker: RunnableWorker;
  api: RunningApi;
  /** The API's pool, for the test's own queries too. */
  db: Db;
  stop(): Promise<void>;
}

export async function startTimeSkippingServices(env: TimeSkippingEnv, knobs: Record<string, string> = {}): Promise<TimeSkippingServices> {
  const config = loadConfig({ ...process.env, WEBHOOK_RETRY_DELAYS: '', ...knobs });
  const { databaseUrl } = stack().local;
  const db = createDb(databaseUrl, { role: 'api' });
  const workerDb = createDb(databaseUrl, { role: 'worker' });
  const worker = await createWorker({ config, db: workerDb, address: env.address });
  const workerDone = worker.run();
  const api = await startApiServer({ config, db, databaseUrl, temporal: env.client }, 0, '127.0.0.1');
  return {
    config,
    worker,
    api,
    db,
    async stop() {
      await api.close();
      worker.shutdown();
      await workerDone.catch(() => undefined);
      await Promise.all([db.destroy(), workerDb.destroy()]);
    },
  };
}
