import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath, isExecutable } from '../../lib/executables.js';
import { searchPath } from '../../lib/config.js';
import { StartupError, firstLine } from './startup-error.js';

/** A Go program the project runs locally (the temporal CLI, stripe-mock), built from Go modules when missing. */
export interface GoTool {
  /** How errors name it, e.g. "Temporal". */
  component: string;
  /** The binary's name, e.g. "temporal". */
  binary: string;
  /** false: a generic name (go install names Temporal's server `server`), never taken from PATH. */
  onPath?: boolean;
  /** `module@version` for go install; or, with sourceDir, the program's folder in this repository. */
  module: string;
  /** A program of this repository (its go.mod and go.sum there): `go build` in this folder instead. */
  sourceDir?: string;
  /** Outside the clone, keyed by version, so every clone and CI run on this machine shares one build. */
  cacheDir: string;
  /** The variable that points at a binary instead, and its value. */
  pathVariable: string;
  pathValue: string | undefined;
  /** What to do when Go is missing, and when the build fails. */
  withoutGo: string;
  whenBuildFails: string;
}

function goInstall(tool: GoTool, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const args = tool.sourceDir ? ['build', '-o', join(tool.cacheDir, tool.binary), '.'] : ['install', tool.module];
    const child = spawn('go', args, { env, cwd: tool.sourceDir, stdio: ['ignore', 'pipe', 'pipe'] });
    const started = Date.now();
    // The first build takes minutes: say that it is alive.
    const ticker = setInterval(() => log(`  still building ${tool.binary} (${Math.round((Date.now() - started) / 1000)} s)…`), 15_000);
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
      reject(new StartupError(tool.component, `go could not run (${firstLine(error)})`, tool.withoutGo));
    });
    child.on('close', (code) => {
      clearInterval(ticker);
      resolve(code ?? 1);
    });
  });
}

/** PATH (unless onPath is false), then the tool's path variable, then the version-keyed cache; otherwise built into the cache with Go. */
export async function resolveGoTool(tool: GoTool, log: (line: string) => void): Promise<string> {
  const fromPath = tool.onPath === false ? undefined : findOnPath(tool.binary, searchPath());
  if (fromPath) return fromPath;
  if (tool.pathValue) {
    if (!isExecutable(tool.pathValue))
      throw new StartupError(
        tool.component,
        `${tool.pathVariable}=${tool.pathValue} is not an executable file`,
        `Point it at the ${tool.binary} binary, or unset it`,
      );
    return tool.pathValue;
  }
  const cached = join(tool.cacheDir, tool.binary);
  if (isExecutable(cached)) return cached;
  if (spawnSync('go', ['version']).status !== 0)
    throw new StartupError(
      tool.component,
      `${tool.binary} is not on PATH, ${tool.pathVariable} is unset, and Go is missing to build ${tool.module}`,
      tool.withoutGo,
    );
  mkdirSync(tool.cacheDir, { recursive: true });
  log(`Building ${tool.module} into ${tool.cacheDir} (first run only)…`);
  const env = { ...process.env, GOBIN: tool.cacheDir, GOFLAGS: '-mod=mod' };
  let code = await goInstall(tool, env, log);
  if (code !== 0) {
    // Without the checksum database every module is still checked against the program's own go.sum.
    log(`go install failed; retrying with GOSUMDB=off (dependencies still verified by ${tool.binary}'s go.sum)…`);
    code = await goInstall(tool, { ...env, GOSUMDB: 'off' }, log);
  }
  if (code !== 0 || !existsSync(cached))
    throw new StartupError(tool.component, `go ${tool.sourceDir ? 'build' : 'install'} ${tool.module} failed (exit ${code})`, tool.whenBuildFails);
  log(`${tool.binary} ready: ${cached}`);
  return cached;
}
