import { randomBytes } from 'node:crypto';

// Mocha loads this file before the spec files, and the spec files (and with them the logger and
// the configuration) before it runs the global setup: the environment is set here, at load time.
// A run stopped by a signal still stops what it started: exiting runs the exit handlers that end
// PostgreSQL, the Temporal dev server and every API or worker process a test spawned.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1)));

process.env.APP_ENV = 'local';
process.env.LOG_LEVEL ??= 'warn';
process.env.SECRET_KEY = randomBytes(32).toString('hex');
process.env.WEBHOOK_ALLOW_PRIVATE = '1';
// Every test calls from 127.0.0.1, many with made-up keys on purpose; the limit has its own test.
process.env.FAILED_AUTH_PER_MINUTE = '100000';
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

/** Mocha global fixtures: the real stack, started once for the whole run. */
export async function mochaGlobalSetup(): Promise<void> {
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

export async function mochaGlobalTeardown(): Promise<void> {
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
