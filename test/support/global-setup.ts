import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

// Mocha loads this file before the spec files, and the spec files (and with them the logger and
// the configuration) before it runs the global setup: the environment is set here, at load time.
// A run stopped by a signal still stops what it started: exiting runs the exit handlers that end
// PostgreSQL, the Temporal dev server and every API or worker process a test spawned.
// In a parallel run, the pool sends SIGTERM to a worker that has not exited 1 s after it was asked
// to: one stopping its stack (see onTerminate below) finishes that first.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    if (signal === 'SIGTERM' && stopping) return;
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });

process.env.APP_ENV = 'local';
process.env.LOG_LEVEL ??= 'warn';
process.env.SECRET_KEY = randomBytes(32).toString('hex');
process.env.WEBHOOK_ALLOW_PRIVATE = '1';
// Every test calls from 127.0.0.1, many with made-up keys on purpose; the limit has its own test.
process.env.FAILED_AUTH_PER_MINUTE = '100000';
// Tests that make a partner fail must not leave its breaker open for the next ones; the breaker has its own test.
process.env.PARTNER_BREAKER_FAILURES = '100000';
// Compressed schedules: webhook retries and the simulated postal operator's steps in milliseconds;
// every live filing fails once first, so the retry-without-duplicate path always runs.
process.env.WEBHOOK_RETRY_DELAYS = '300ms,300ms,300ms,300ms,300ms,300ms,300ms';
process.env.OPERATOR_STEP_DELAY = '300ms';
process.env.OPERATOR_FAIL_FIRST_FILINGS = '1';
// Failing partners are part of the tests; the SDK would log each failed attempt.
process.env.TEMPORAL_LOG_LEVEL ??= 'ERROR';
// The suite always starts its own components; knobs come from each test that needs them.
for (const name of [
  'DATABASE_URL',
  'TEMPORAL_ADDRESS',
  'TEMPORAL_TLS_CA',
  'TEMPORAL_TLS_CERT',
  'TEMPORAL_TLS_KEY',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_API_KEY',
  'TEMPORAL_REGISTER_SEARCH_ATTRIBUTES',
  'WORKER_ROLES',
  'SHUTDOWN_GRACE',
  'RATE_LIMIT_PER_MINUTE',
  'SANDBOX_DAILY_QUOTA',
  'PORT',
  'EMBEDDINGS_BASE_URL',
  'EMBEDDINGS_API_KEY',
  'EMBEDDINGS_MODEL',
  'GEOCODING_BASE_URL',
  'COMPANIES_BASE_URL',
  'ROUTING_BASE_URL',
  'ROUTING_RATE_PER_SECOND',
  'FUEL_BASE_URL',
  'PARTNER_TIMEOUT',
  'LLM_BASE_URL',
  'LLM_API_KEY',
  'LLM_MODEL',
  'LLM_TIMEOUT',
  'LLM_RATE_PER_SECOND',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_MOCK_URL',
])
  delete process.env[name];

/**
 * What one process's tests talk to: the partner stand-ins (stateful: tests script their answers and
 * read their requests) and the real stack. A serial run starts it once; a parallel run once in
 * each worker process, on free ports, so two files never share a database or a Temporal server.
 */
async function startEnvironment(): Promise<void> {
  // The semantic search engine: a local OpenAI-compatible embeddings server.
  const { embeddings } = await import('./embeddings-server.js');
  await embeddings.start();
  process.env.EMBEDDINGS_BASE_URL = embeddings.baseUrl;
  process.env.EMBEDDINGS_MODEL = 'test-trigrams';
  // Partners this machine cannot reach: local servers replaying their recorded responses.
  const { geocoder, companyDirectory, router, fuelData } = await import('./partner-server.js');
  await Promise.all([geocoder.start(), companyDirectory.start(), router.start(), fuelData.start()]);
  process.env.FUEL_BASE_URL = fuelData.baseUrl;
  process.env.GEOCODING_BASE_URL = geocoder.baseUrl;
  process.env.COMPANIES_BASE_URL = companyDirectory.baseUrl;
  process.env.ROUTING_BASE_URL = router.baseUrl;
  process.env.ROUTING_RATE_PER_SECOND = '20';
  process.env.PARTNER_TIMEOUT = '1s';
  // The LLM of the AI operations: a local OpenAI-compatible server with recorded-style answers.
  const { llm } = await import('./llm-server.js');
  await llm.start();
  process.env.LLM_BASE_URL = llm.baseUrl;
  process.env.LLM_API_KEY = 'test-llm-key';
  process.env.LLM_MODEL = 'gpt-4o-mini';
  process.env.LLM_TIMEOUT = '1s';
  const { startTestStack } = await import('./stack.js');
  await startTestStack();
}

async function stopEnvironment(): Promise<void> {
  const { stack, stopTestStack } = await import('./stack.js');
  if (process.env.RECORD_HISTORIES) {
    const { recordHistories } = await import('./record-histories.js');
    const written = await recordHistories(stack().temporal.client, process.env.RECORD_HISTORIES);
    process.stderr.write(`recorded ${written.length} histories in ${process.env.RECORD_HISTORIES}: ${written.join(', ')}\n`);
  }
  await stopTestStack();
  const { embeddings } = await import('./embeddings-server.js');
  await embeddings.stop();
  const { llm } = await import('./llm-server.js');
  await llm.stop();
  const { geocoder, companyDirectory, router, fuelData } = await import('./partner-server.js');
  await Promise.all([geocoder.stop(), companyDirectory.stop(), router.stop(), fuelData.stop()]);
}

/** What mocha calls the global fixtures on: its runner (Runner#isParallelMode is missing from @types/mocha). */
interface FixtureContext {
  isParallelMode(): boolean;
}

/**
 * Mocha global fixtures. A serial run starts its environment here, once. In a parallel run
 * (`--parallel`, see .mocharc.json) mocha calls them in the main process only, where no test runs,
 * before it starts the workers: they build or install, once, the cached tools that the workers would
 * otherwise build at the same time into the same folders on a fresh machine; each worker then starts
 * its own environment (mochaHooks below).
 */
export async function mochaGlobalSetup(this: FixtureContext): Promise<void> {
  // Two stacks would each record their half of the paths into the same folder.
  if (this.isParallelMode() && process.env.RECORD_HISTORIES)
    throw new Error('RECORD_HISTORIES needs one stack that sees every path: run `RECORD_HISTORIES=DIR npm run test:serial`');
  if (this.isParallelMode()) await prepareSharedTools();
  else await startEnvironment();
}

export async function mochaGlobalTeardown(this: FixtureContext): Promise<void> {
  if (!this.isParallelMode()) await stopEnvironment();
}

async function prepareSharedTools(): Promise<void> {
  const log = (line: string): void => void process.stderr.write(`[test tools] ${line}\n`);
  const { loadConfig } = await import('../../lib/config.js');
  const { resolveTemporalCli } = await import('../../scripts/local/temporal-cli.js');
  const { resolveStripeMock } = await import('../../scripts/local/stripe-mock.js');
  const { resolveTemporalTestServer } = await import('../../scripts/local/temporal-test-server.js');
  const { pythonSdkTools } = await import('../../scripts/local/python-sdk-venv.js');
  const { resolveHelm } = await import('../../scripts/local/helm.js');
  const { resolveWeed } = await import('../../scripts/local/seaweedfs.js');
  const { resolveTemporalClusterTools } = await import('../../scripts/local/temporal-cluster.js');
  // One after the other, before any test: each may be a first build that takes the machine's cores
  // for minutes (helm and Temporal's own server are the longest), which would otherwise run under
  // the tests of a fresh machine and push the timing-bound ones past their limits. A tool that
  // fails here fails again, with its own message, in the tests that need it.
  const tools: [string, () => unknown][] = [
    ['the temporal CLI', () => resolveTemporalCli(loadConfig().temporalCliPath, log)],
    ['stripe-mock', () => resolveStripeMock(log)],
    ["Temporal's test server", () => resolveTemporalTestServer(log)],
    ['the Python SDK tools', () => pythonSdkTools(log)],
    ['helm', () => resolveHelm(log)],
    ["SeaweedFS's weed (the object-store tests)", () => resolveWeed(log)],
    ["Temporal's server and SQL tool (the self-hosted cluster's test)", () => resolveTemporalClusterTools(log)],
  ];
  for (const [name, prepare] of tools)
    await Promise.resolve()
      .then(prepare)
      .catch((error: unknown) => log(`${name} not ready (${(error as Error).message.split('\n')[0]}): left to the tests that use it`));
}

// In a parallel run's worker (mocha sets MOCHA_WORKER_ID), the root "before all" hook runs before
// each file the worker is given: the first one starts the worker's environment, the others find it
// running. It stops when mocha ends the worker, through the worker pool's termination handler.
const inParallelWorker = process.env.MOCHA_WORKER_ID !== undefined;
let environment: Promise<void> | undefined;

/**
 * The partner stand-ins serve every file of a process: a fault one file injected and did not use up
 * (a `failNext` larger than the client's retries) would fail the next file's calls. Each file's first
 * test therefore meets them without faults. Faults are only ever injected inside tests, never in
 * `before` hooks, which run before this one.
 */
let faultsClearedFor: string | undefined;
async function clearPartnerFaultsForEachFile(this: Mocha.Context): Promise<void> {
  const file = this.currentTest?.file;
  if (file === faultsClearedFor) return;
  faultsClearedFor = file;
  const [{ partnerStandIns }, { llm }] = await Promise.all([import('./partner-server.js'), import('./llm-server.js')]);
  for (const standIn of [...partnerStandIns, llm]) standIn.clearFaults();
}

export const mochaHooks = inParallelWorker
  ? {
      async beforeAll(this: Mocha.Context): Promise<void> {
        this.timeout(0); // a first start may build or unpack tools
        environment ??= startEnvironment();
        await environment;
      },
      beforeEach: clearPartnerFaultsForEachFile,
    }
  : { beforeEach: clearPartnerFaultsForEachFile };

if (inParallelWorker) {
  // mocha's own worker pool, found from mocha (it is mocha's dependency, not ours).
  const workerpool = createRequire(createRequire(import.meta.url).resolve('mocha'))('workerpool') as {
    worker(methods: object, options: { onTerminate(): Promise<void> }): void;
  };
  workerpool.worker(
    {},
    {
      async onTerminate() {
        stopping = true;
        // Whatever happens, the worker ends: the exit handlers still stop PostgreSQL and Temporal.
        const deadline = setTimeout(() => process.exit(1), 30_000);
        await environment?.then(stopEnvironment).catch((error: unknown) => {
          process.stderr.write(`the worker's test stack did not stop cleanly: ${(error as Error).stack ?? String(error)}\n`);
          process.exitCode = 1;
        });
        clearTimeout(deadline);
      },
    },
  );
}
