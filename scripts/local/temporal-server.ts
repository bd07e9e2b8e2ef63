import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { devServerSearchAttributeFlags, waitForTemporal } from '../../temporal/connection.js';
import { StartupError, firstLine } from './startup-error.js';
import { awaitServerStart } from './child-process.js';
import { PORT_TAKEN_OUTPUT, PortTakenError } from './ports.js';

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

/** How long the dev server may take to listen and answer. */
const STARTUP_MS = 60_000;

const DEV_SERVER_DYNAMIC_CONFIG = {
  'history.transferProcessorMaxPollRPS': 1000,
  'history.visibilityProcessorMaxPollRPS': 1000,
};

/**
 * `temporal server start-dev`: a real Temporal server (and its Web UI) in one process. Its ports
 * taken meanwhile: PortTakenError (retryWhilePortTaken tries others).
 */
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

  const address = `127.0.0.1:${options.port}`;
  let recent = '';
  // Seen as it is printed: a server that cannot bind panics next, and its stack trace is longer than `recent`.
  let portTaken = false;
  // The CLI prints its addresses once its server listens: until then, a server answering on the
  // port may be another one (which took the port first: then ours exits).
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Temporal dev server did not say it listens within ${STARTUP_MS} ms`)), STARTUP_MS);
    const onOutput = (chunk: Buffer): void => {
      recent = (recent + chunk.toString()).slice(-4000);
      if (PORT_TAKEN_OUTPUT.test(recent)) portTaken = true;
      if (/^Server:\s/m.test(recent)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onOutput);
    child.stderr!.on('data', onOutput);
  });
  const early = Promise.race([
    // 'close': the exit, and all it printed read.
    once(child, 'close').then(([code]) => {
      const ports = `port ${options.port}${options.uiPort === null ? '' : ` or UI port ${options.uiPort}`}`;
      if (portTaken) throw new PortTakenError('Temporal', `the dev server could not listen (${ports} taken)`, `See ${options.logFile}`);
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
  const server = await awaitServerStart(child, log, Promise.all([listening, waitForTemporal(address, STARTUP_MS)]), early, [listening]);
  return {
    address,
    uiUrl: options.uiPort === null ? null : `http://localhost:${options.uiPort}`,
    stop: () => server.stop('SIGTERM', 10_000),
  };
}
