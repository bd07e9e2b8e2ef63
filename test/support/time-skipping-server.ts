import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection, type ConnectionOptions } from '@temporalio/client';
import { InternalConnectionOptionsSymbol } from '@temporalio/client/lib/connection.js';
import { msToTs, tsToMs } from '@temporalio/common/lib/time.js';
import { searchAttributeTypes, waitForTemporal } from '../../temporal/connection.js';
import { freePort } from '../../lib/net/ports.js';
import { resolveTemporalTestServer } from '../../scripts/local/temporal-test-server.js';
import { StartupError } from '../../scripts/local/startup-error.js';
import { track } from './processes.js';

const NAMESPACE = 'default';

/**
 * Temporal's time-skipping test server, what `@temporalio/testing`'s
 * `TestWorkflowEnvironment.createTimeSkipping()` gives, on the server of
 * scripts/local/temporal-test-server.ts. Time is locked at start: it runs at the wall clock's pace
 * until a test skips it, e.g. `await env.skipping(() => handle.result())`. While it is unlocked, the
 * server jumps to the next timer, activity retry or timeout whenever no workflow or activity task
 * is running. One environment serves one test at a time (the clock is the server's, not a
 * workflow's).
 */
export interface TimeSkippingEnv {
  address: string;
  namespace: string;
  /** A connection with the TestService (lock, unlock, sleep, current time). */
  connection: Connection;
  client: Client;
  /** Runs `work` with time skipping unlocked, then locks it again. */
  skipping<T>(work: () => Promise<T>): Promise<T>;
  /** Moves the server's clock forward by `ms` (skipping), then returns. */
  sleep(ms: number): Promise<void>;
  /** The server's current time: what `new Date()` is in a workflow. */
  now(): Promise<Date>;
  /** The test server's output, for a failure message. */
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Starts a test server of its own; its output goes to `logDir` (the system's temporary folder unless
 * given). The log is kept when the server fails to start (the error names it), removed at a normal stop.
 */
export async function startTimeSkipping(logDir: string = tmpdir()): Promise<TimeSkippingEnv> {
  const executable = await resolveTemporalTestServer((line) => void process.stderr.write(`[time-skipping] ${line}\n`));
  const port = await freePort();
  const logFile = join(logDir, `temporal-test-server-${port}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  // The test server takes its port as first argument; without --enable-time-skipping its clock is locked.
  const child = track(spawn(executable, [String(port)], { stdio: ['ignore', 'pipe', 'pipe'] }));
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const address = `127.0.0.1:${port}`;
  const early = Promise.race([
    once(child, 'exit').then(([code]) => {
      throw new StartupError('Temporal test server', `${executable} exited at start (code ${code})`, `See ${logFile}`);
    }),
    once(child, 'error').then(([error]) => {
      throw new StartupError(
        'Temporal test server',
        `${executable} could not run (${(error as Error).message})`,
        'Set TEMPORAL_TEST_SERVER_PATH, or remove the cache folder',
      );
    }),
  ]);
  early.catch(() => undefined);
  const stopServer = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    log.end();
  };
  let connection: Connection;
  try {
    await Promise.race([waitForTemporal(address, 60_000), early]);
    // The option @temporalio/testing sets: the connection then carries the TestService.
    connection = await Connection.connect({ address, [InternalConnectionOptionsSymbol]: { supportsTestService: true } } as ConnectionOptions);
    // The test server has no listing of search attributes: ours are added as they are.
    await connection.operatorService.addSearchAttributes({ namespace: NAMESPACE, searchAttributes: searchAttributeTypes() });
  } catch (error) {
    await stopServer();
    throw error;
  }
  const testService = connection.testService!;
  const client = new Client({ connection, namespace: NAMESPACE });
  return {
    address,
    namespace: NAMESPACE,
    connection,
    client,
    logFile,
    async skipping(work) {
      await testService.unlockTimeSkipping({});
      try {
        return await work();
      } finally {
        await testService.lockTimeSkipping({});
      }
    },
    async sleep(ms) {
      await testService.unlockTimeSkippingWithSleep({ duration: msToTs(ms) });
    },
    async now() {
      return new Date(tsToMs((await testService.getCurrentTime({})).time));
    },
    async stop() {
      await connection.close().catch(() => undefined);
      await stopServer();
      rmSync(logFile, { force: true });
    },
  };
}
