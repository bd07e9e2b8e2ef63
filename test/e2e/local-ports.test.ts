import { expect } from 'chai';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../lib/config.js';
import { freePort } from '../../lib/net/ports.js';
import { connectTemporal } from '../../temporal/connection.js';
import { PortTakenError, retryWhilePortTaken } from '../../scripts/local/ports.js';
import { startLocalPostgres } from '../../scripts/local/postgres.js';
import { startLocalStack, type LocalStack } from '../../scripts/local/stack.js';
import { resolveTemporalCli } from '../../scripts/local/temporal-cli.js';
import { startTemporalDevServer } from '../../scripts/local/temporal-server.js';

/** A listener on 127.0.0.1:port that nothing answers: the port is taken. */
async function holdPort(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

/**
 * The local stack's servers when their port is taken between the check and the bind (two clones
 * started at the same moment): the loser tries other ports (scripts/local/ports.ts).
 */
describe('local servers whose port is taken', function () {
  this.timeout(180_000);
  let dataDir: string;
  // Without DATABASE_URL and TEMPORAL_ADDRESS (which the test stack sets), and no stripe-mock.
  const config = { ...loadConfig({ ...process.env, DATABASE_URL: '', TEMPORAL_ADDRESS: '' }) };
  config.stripe = { ...config.stripe, mockUrl: 'http://127.0.0.1:9' };
  const log = (line: string): void => void process.stderr.write(`[local ports] ${line}\n`);

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-ports-'));
    // PostgreSQL runs as the `postgres` user when we are root: it must reach the folder.
    chmodSync(dataDir, 0o755);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('PostgreSQL and the Temporal dev server say PortTakenError, and come up on another port when tried again', async () => {
    const taken = await freePort();
    const holder = await holdPort(taken);
    const cli = await resolveTemporalCli(config.temporalCliPath, log);
    try {
      const tries: { postgres: unknown[]; temporal: unknown[] } = { postgres: [], temporal: [] };
      const [postgres, temporal] = await Promise.all([
        retryWhilePortTaken(async (attempt) => {
          const port = attempt === 1 ? taken : await freePort();
          return startLocalPostgres(join(dataDir, 'postgres'), port, false).catch((error: unknown) => {
            tries.postgres.push(error);
            throw error;
          });
        }),
        retryWhilePortTaken(async (attempt) => {
          const port = attempt === 1 ? taken : await freePort();
          return startTemporalDevServer({ cli, port, uiPort: null, logFile: join(dataDir, 'temporal.log') }).catch((error: unknown) => {
            tries.temporal.push(error);
            throw error;
          });
        }),
      ]);
      try {
        expect(tries.postgres).to.have.length(1);
        expect(tries.postgres[0]).to.be.instanceOf(PortTakenError);
        expect(tries.temporal).to.have.length(1);
        expect(tries.temporal[0]).to.be.instanceOf(PortTakenError);
        expect(postgres.port).to.not.equal(taken);
        expect(temporal.address).to.not.equal(`127.0.0.1:${taken}`);
      } finally {
        await Promise.all([postgres.stop(), temporal.stop()]);
      }
    } finally {
      holder.close();
    }
  });

  it('two local stacks started at the same moment with the same preferred ports both come up, each with its own servers', async () => {
    const preferredPorts = { postgres: await freePort(), temporal: await freePort() };
    for (const name of ['one', 'two']) mkdirSync(join(dataDir, name), { mode: 0o755 });
    const started = await Promise.allSettled(
      ['one', 'two'].map((name) => startLocalStack(config, { dataDir: join(dataDir, name), persistent: false, uiPort: null, preferredPorts, log })),
    );
    const stacks = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(started.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason))).to.deep.equal([]);
      const [one, two] = stacks as [LocalStack, LocalStack];
      expect(one.databaseUrl).to.not.equal(two.databaseUrl);
      expect(one.temporalAddress).to.not.equal(two.temporalAddress);
      for (const stack of stacks) {
        const client = new pg.Client({ connectionString: stack.databaseUrl });
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        const temporal = await connectTemporal(stack.temporalAddress, config.temporalNamespace);
        await temporal.connection.close();
      }
    } finally {
      await Promise.all(stacks.map((stack) => stack.stop()));
    }
  });
});
