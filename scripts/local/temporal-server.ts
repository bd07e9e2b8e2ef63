import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { devServerSearchAttributeFlags, waitForTemporal } from '../../temporal/connection.js';
import { StartupError, firstLine } from './startup-error.js';
import { stopChild } from './child-process.js';

export interface LocalTemporal {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
}

export interface TemporalServerOptions {
  cli: string;
  port: number;
  /** null runs without the Web UI. */
  uiPort: number | null;
  /** SQLite file that keeps workflow history across restarts; undefined keeps it in memory. */
  dbFile?: string;
  logFile: string;
}

const DEV_SERVER_DYNAMIC_CONFIG = {
  'history.transferProcessorMaxPollRPS': 1000,
  'history.visibilityProcessorMaxPollRPS': 1000,
};

/** `temporal server start-dev`: a real Temporal server (and its Web UI) in one process. */
export async function startTemporalDevServer(options: TemporalServerOptions): Promise<LocalTemporal> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port), '--log-level', 'warn'];
  args.push(...(options.uiPort === null ? ['--headless'] : ['--ui-port', String(options.uiPort)]));
  if (options.dbFile) {
    mkdirSync(dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  args.push(...devServerSearchAttributeFlags());
  // The history service reads its transfer queue (every workflow and activity task to dispatch) at
  // most 20 times a second by default: back-to-back workflows then wait ~50 ms per task. A real
  // cluster is tuned by its operators; the embedded one is tuned here (docs/performance.md).
  for (const [key, value] of Object.entries(DEV_SERVER_DYNAMIC_CONFIG)) args.push('--dynamic-config-value', `${key}=${value}`);

  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const child = spawn(options.cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);

  const address = `127.0.0.1:${options.port}`;
  const early = Promise.race([
    once(child, 'exit').then(([code]) => {
      throw new StartupError(
        'Temporal',
        `the dev server exited at start (code ${code})`,
        `See ${options.logFile}, or set TEMPORAL_ADDRESS to a Temporal server you run`,
      );
    }),
    once(child, 'error').then(([error]) => {
      throw new StartupError(
        'Temporal',
        `${options.cli} could not run (${firstLine(error)})`,
        'Set TEMPORAL_CLI_PATH to a working temporal CLI, or TEMPORAL_ADDRESS to a Temporal server you run',
      );
    }),
  ]);
  await Promise.race([waitForTemporal(address), early]);
  early.catch(() => undefined);
  return {
    address,
    uiUrl: options.uiPort === null ? null : `http://localhost:${options.uiPort}`,
    async stop() {
      process.removeListener('exit', killOnExit);
      await stopChild(child, 'SIGTERM', 10_000);
      log.end();
    },
  };
}
