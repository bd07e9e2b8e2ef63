import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../lib/net/ports.js';
import { resolveTemporalCli } from '../../scripts/local/temporal-cli.js';
import { retryWhilePortTaken } from '../../scripts/local/ports.js';
import { startTemporalDevServer } from '../../scripts/local/temporal-server.js';
import type { TimeSkippingEnv } from './time-skipping-server.js';

/**
 * A real Temporal server (the CLI's dev server, headless, in memory) behind the time-skipping
 * environment's shape, for the few workflow tests whose path the test server gets wrong: it
 * refuses to cancel an activity waiting for its retry ("ACTIVITY_UNKNOWN", sdk-java #2391 /
 * sdk-typescript #1058), which the real server does. Its clock is the wall clock: nothing skips.
 */
export async function startDevServerEnv(logDir: string = tmpdir()): Promise<TimeSkippingEnv> {
  const cli = await resolveTemporalCli(undefined, (line) => void process.stderr.write(`[dev server] ${line}\n`));
  let logFile = '';
  const server = await retryWhilePortTaken(async () => {
    const port = await freePort();
    logFile = join(logDir, `temporal-dev-server-${port}.log`);
    return startTemporalDevServer({ cli, port, uiPort: null, logFile });
  });
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, namespace: 'default' });
  const noClock = (): never => {
    throw new Error('a real Temporal server does not skip time: use the time-skipping environment');
  };
  return {
    address: server.address,
    namespace: 'default',
    connection,
    client,
    logFile,
    skipping: async () => noClock(),
    sleep: async () => noClock(),
    now: async () => new Date(),
    async stop() {
      await connection.close().catch(() => undefined);
      await server.stop();
      rmSync(logFile, { force: true });
    },
  };
}
