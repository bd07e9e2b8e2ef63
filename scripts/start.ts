import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, loadConfig, logLevel } from '../lib/config.js';
import { startLocalStack, LOCAL_PORTS } from './local/stack.js';
import { createDb, migrateLatest } from '../db/knex.js';
import { useConfiguredDocumentStore } from '../domain/documents/configured.js';
import { connectTemporal, prepareSearchAttributes } from '../temporal/connection.js';
import { createWorker, ensureSchedules } from '../worker/worker.js';
import { startApiServer } from '../server/server.js';
import { ensureDevAccount } from './local/dev-account.js';
import { StartupError, firstLine } from './local/startup-error.js';

/**
 * `npm start`: Postgres, migrations, Temporal dev server (UI on 8233), the worker and the API in
 * one command, each embedded default replaced by its environment variable. Ctrl-C stops it all.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  useConfiguredDocumentStore(config);
  const dir = dataDir();
  mkdirSync(dir, { recursive: true });
  const say = (line: string): void => void process.stderr.write(line + '\n');

  const stack = await startLocalStack(config, { dataDir: dir, persistent: true, uiPort: LOCAL_PORTS.temporalUi, log: say });
  if (stack.stripeMockUrl) config.stripe.mockUrl = stack.stripeMockUrl;
  writeFileSync(join(dir, 'stack.json'), JSON.stringify({ databaseUrl: stack.databaseUrl, temporalAddress: stack.temporalAddress }, null, 2) + '\n', {
    mode: 0o600,
  });

  // The API and the worker each get their own pool, as they would in their own processes.
  const db = createDb(stack.databaseUrl, { role: 'api' });
  const workerDb = createDb(stack.databaseUrl, { role: 'worker' });
  const applied = await migrateLatest(db);
  if (applied.length) say(`Applied migrations: ${applied.join(', ')}`);

  const temporal = await connectTemporal(stack.temporalAddress, config.temporalNamespace, config);
  // Registered on the dev server started here; checked on a server of TEMPORAL_ADDRESS (unless TEMPORAL_REGISTER_SEARCH_ATTRIBUTES=1).
  const mailings = config.workerRoles.includes('mailings');
  if (mailings)
    await prepareSearchAttributes(temporal.connection, config).catch((error: unknown) => {
      // Its commands span several lines: printed whole.
      throw new StartupError('Temporal', (error as Error).message, 'Then run npm start again');
    });
  say('Bundling workflows and starting the worker…');
  const worker = await createWorker({ config, db: workerDb, address: stack.temporalAddress });
  const workerDone = worker.run();
  const browser = await worker.browsers.prepare().then(
    (choice) =>
      `${choice.source === 'packaged' ? 'packaged Chromium' : choice.source === 'system' ? 'system Chromium' : 'PUPPETEER_EXECUTABLE_PATH'} (${choice.executablePath})`,
    (error: unknown) => `none: ${firstLine(error)}. Letters and proofs cannot print until this is fixed`,
  );
  if (mailings) await ensureSchedules(temporal.client, config);

  const api = await startApiServer({ config, db, databaseUrl: stack.databaseUrl, temporal: temporal.client }, config.port);
  const account = config.appEnv === 'local' ? await ensureDevAccount(db, dir) : undefined;

  console.log(`
  API base URL   ${api.url}/v1      (docs: ${api.url}/docs, health: ${api.url}/health)
  Dev space      ${api.url}/dashboard   (emails: ${config.mail.smtpUrl ? 'SMTP_URL' : config.mail.outboxDir})
  Temporal UI    ${stack.temporalUiUrl ?? '(external Temporal at ' + stack.temporalAddress + ')'}
  Payments       ${config.stripe.mode === 'mock' ? `stripe-mock at ${config.stripe.mockUrl} (test payment page, no real money)` : config.stripe.mode === 'stripe' ? 'Stripe (STRIPE_SECRET_KEY)' : 'disabled (no STRIPE_SECRET_KEY)'}
  PDF browser    ${browser}
  Sandbox key    ${account?.testKey ?? '(create one: npm run --silent admin -- key create …)'}

  Try: curl -s -H "Authorization: Bearer ${account?.testKey ?? 'svc_test_…'}" -H 'Content-Type: application/json' \\
         -d '{"members":[{"id":"ana"},{"id":"ben"}],"expenses":[{"amountCents":3000,"paidBy":"ana"}]}' ${api.url}/v1/expenses/settle
  Ctrl-C stops everything.
`);

  let stopping = false;
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    say('\nStopping…');
    await api.close();
    worker.shutdown();
    await workerDone.catch(() => undefined);
    await temporal.connection.close();
    await Promise.all([db.destroy(), workerDb.destroy()]);
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

/**
 * One line per failure, naming the component and the fix (StartupError); anything else also says
 * where its stack is. Exit handlers registered by the stack stop what had started.
 */
function fail(error: unknown): never {
  if (error instanceof StartupError) console.error(`npm start: ${error.message}`);
  else {
    console.error(`npm start: ${firstLine(error)} (LOG_LEVEL=debug prints the stack)`);
    if (logLevel() === 'debug') console.error(error);
  }
  process.exit(1);
}

// A child process's unhandled 'error' event, or any other stray failure, ends here, not in a trace.
process.on('uncaughtException', fail);
main().catch(fail);
