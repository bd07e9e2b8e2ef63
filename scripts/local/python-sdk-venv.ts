import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolsCacheDir } from '../../lib/config.js';
import { projectRoot } from '../../lib/paths.js';
import { StartupError } from './startup-error.js';

/** The pinned generator and runtime of the Python SDK (sdk/python/requirements-tools.txt). */
export const PYTHON_SDK_REQUIREMENTS = join(projectRoot, 'sdk', 'python', 'requirements-tools.txt');

/** Outside the clone, keyed by the requirements' hash: every clone and CI run on the machine shares one venv, a new pin gets a new one. */
export function pythonSdkVenvDir(): string {
  const hash = createHash('sha256').update(readFileSync(PYTHON_SDK_REQUIREMENTS)).digest('hex').slice(0, 16);
  return join(toolsCacheDir(), `python-sdk-${hash}`);
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0)
    throw new StartupError(
      'Python SDK tools',
      `${what} failed (${result.error?.message ?? `exit ${result.status}`}): ${(result.stderr ?? '').trim().slice(-500)}`,
      'Check that python3 (3.11 or later) and PyPI are reachable',
    );
}

/**
 * The venv's bin folder, created on first use with `python3 -m venv` and pip from PyPI. A venv
 * cannot be moved once built, so it is built in place and marked ready last: a run interrupted
 * halfway leaves no mark, and the next one starts that venv again.
 */
export function pythonSdkTools(log: (line: string) => void = () => {}): { bin: string; python: string } {
  const dir = pythonSdkVenvDir();
  const bin = join(dir, 'bin');
  const ready = join(dir, '.ready');
  if (!existsSync(ready)) {
    const python = process.env.PYTHON ?? 'python3';
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(toolsCacheDir(), { recursive: true });
    log(`Installing the Python SDK tools into ${dir} (first run only)…`);
    run(python, ['-m', 'venv', dir], `${python} -m venv`);
    run(join(bin, 'pip'), ['install', '--quiet', '--disable-pip-version-check', '-r', PYTHON_SDK_REQUIREMENTS], 'pip install');
    writeFileSync(ready, readFileSync(PYTHON_SDK_REQUIREMENTS));
  }
  return { bin, python: join(bin, 'python') };
}
