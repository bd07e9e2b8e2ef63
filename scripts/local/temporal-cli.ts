import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath, isExecutable } from '../../lib/executables.js';
import { searchPath, toolsCacheDir } from '../../lib/config.js';
import { StartupError, firstLine } from './startup-error.js';

export const TEMPORAL_CLI_VERSION = '1.5.1';
const MODULE = `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`;

/** Outside the clone, keyed by version, so every clone and CI run on this machine shares one build. */
export function temporalCacheDir(): string {
  return join(toolsCacheDir(), `temporal-${TEMPORAL_CLI_VERSION}`);
}

function goInstall(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', ['install', MODULE], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const started = Date.now();
    // The first build takes minutes: say that it is alive.
    const ticker = setInterval(() => log(`  still building temporal CLI (${Math.round((Date.now() - started) / 1000)} s)…`), 15_000);
    const relay = (chunk: Buffer): void =>
      chunk
        .toString()
        .split('\n')
        .filter(Boolean)
        .forEach((line) => log('  ' + line));
    child.stdout.on('data', relay);
    child.stderr.on('data', relay);
    child.on('error', (error) => {
      clearInterval(ticker);
      reject(new StartupError('Temporal', `go could not run (${firstLine(error)})`, 'Install Go, or set TEMPORAL_CLI_PATH or TEMPORAL_ADDRESS'));
    });
    child.on('close', (code) => {
      clearInterval(ticker);
      resolve(code ?? 1);
    });
  });
}

/**
 * Finds the `temporal` CLI (which bundles the dev server and the Web UI): PATH, then
 * TEMPORAL_CLI_PATH, then the version-keyed cache; otherwise builds it into the cache with Go.
 */
export async function resolveTemporalCli(cliPath: string | undefined, log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<string> {
  const fromPath = findOnPath('temporal', searchPath());
  if (fromPath) return fromPath;
  const fromEnv = cliPath;
  if (fromEnv) {
    if (!isExecutable(fromEnv))
      throw new StartupError('Temporal', `TEMPORAL_CLI_PATH=${fromEnv} is not an executable file`, 'Point it at the temporal binary, or unset it');
    return fromEnv;
  }
  const cacheDir = temporalCacheDir();
  const cached = join(cacheDir, 'temporal');
  if (isExecutable(cached)) return cached;

  if (spawnSync('go', ['version']).status !== 0) {
    throw new StartupError(
      'Temporal',
      `the temporal CLI is not on PATH, TEMPORAL_CLI_PATH is unset, and Go is missing to build ${MODULE}`,
      'Install Go or the temporal CLI, or set TEMPORAL_ADDRESS to a Temporal server you run',
    );
  }
  mkdirSync(cacheDir, { recursive: true });
  log(`Building the temporal CLI v${TEMPORAL_CLI_VERSION} into ${cacheDir} (first run only, a few minutes)…`);
  const env = { ...process.env, GOBIN: cacheDir, GOFLAGS: '-mod=mod' };
  let code = await goInstall(env, log);
  if (code !== 0) {
    // Without the checksum database every module is still checked against the CLI's own go.sum.
    log('go install failed; retrying with GOSUMDB=off (dependencies still verified by the CLI go.sum)…');
    code = await goInstall({ ...env, GOSUMDB: 'off' }, log);
  }
  if (code !== 0 || !existsSync(cached)) {
    throw new StartupError(
      'Temporal',
      `go install ${MODULE} failed (exit ${code})`,
      'Check that the Go module proxy is reachable (the output above says why), or set TEMPORAL_CLI_PATH or TEMPORAL_ADDRESS',
    );
  }
  log('temporal CLI ready: ' + cached);
  return cached;
}
