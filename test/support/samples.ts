import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTypeScriptSdk } from './sdk-scene.js';
import { projectRoot } from '../../lib/paths.js';
import { pythonSdkTools } from '../../scripts/local/python-sdk-venv.js';

/** How a sample's process ended. */
export interface SampleRun {
  code: number;
  out: string;
  err: string;
}

/** How a process under test is run: where, with what added to the environment, what it reads on stdin. */
export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Killed past this (default 60 s). */
  timeoutMs?: number;
}

/**
 * Runs a command and answers its exit code and both outputs; asynchronously, as the API under
 * test answers from this very process.
 */
export function runProcess(command: string, args: string[], options: RunOptions = {}): Promise<SampleRun> {
  return new Promise((resolve, reject) => {
    // The suite's relative NODE_EXTRA_CA_CERTS means nothing from the samples' directory.
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: undefined, ...options.env },
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
    const timer = setTimeout(() => child.kill(), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out, err });
    });
    if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  });
}

/** Runs a command to its end and answers its standard output; a non-zero exit fails, with both outputs. */
export async function outputOf(command: string, args: string[], options: RunOptions = {}): Promise<string> {
  const { code, out, err } = await runProcess(command, args, options);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}:\n${out}${err}`);
  return out;
}

/** A shell sample as a reader runs it: bash, its curl calls as written, their outputs untouched (a pipe reads them). */
export async function runShell(source: string, cwd: string, env: Record<string, string>): Promise<SampleRun & { statuses: number[]; replayed: boolean[] }> {
  // Each call's status and Idempotent-Replayed on stderr, one line each (`%{stderr}` and `%header{}`: curl 7.84 or later).
  const curlWithStatus = `curl() { command curl -sS -w '%{stderr}%{http_code} %header{idempotent-replayed}\\n' "$@"; }\n`;
  const result = await runProcess('bash', ['-c', curlWithStatus + source], { cwd, env });
  const calls = [...result.err.matchAll(/^(\d{3}) (\S*)$/gm)];
  return { ...result, statuses: calls.map((c) => Number(c[1])), replayed: calls.map((c) => c[2] === 'true') };
}

/**
 * TypeScript samples as a user of the SDK has them: a module importing `svc-postal` (the built
 * sdk/typescript), compiled by tsc in one run (a type error fails it); answers each file's
 * compiled path, to run with node.
 */
export async function compileTypeScript(dir: string, files: Record<string, string>): Promise<Record<string, string>> {
  await buildTypeScriptSdk();
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(join(projectRoot, 'sdk', 'typescript'), join(dir, 'node_modules', 'svc-postal'));
  symlinkSync(join(projectRoot, 'node_modules', '@types'), join(dir, 'node_modules', '@types'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], skipLibCheck: true };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions }));
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, `${name}.ts`), source);
  const tsc = await runProcess(process.execPath, [join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir });
  if (tsc.code !== 0) throw new Error(`the TypeScript samples do not compile:\n${tsc.out}${tsc.err}`);
  return Object.fromEntries(Object.keys(files).map((name) => [name, join(dir, `${name}.js`)]));
}

/** Runs a Python file unchanged; an ApiError that ends it is printed with its status (its str() is the message alone). */
const PYTHON_STATUS_OF_API_ERROR = `
import runpy, sys
from svc_postal import ApiError
try:
    runpy.run_path(sys.argv[1], run_name="__main__")
except ApiError as error:
    print(repr(error), file=sys.stderr)
    sys.exit(1)
`;

/** A Python sample run with the SDK's venv (installed from PyPI on a machine's first run) and sdk/python on its path. */
export function runPython(file: string, cwd: string, env: Record<string, string>): Promise<SampleRun> {
  const { python } = pythonSdkTools((line) => process.stderr.write(line + '\n'));
  return runProcess(python, ['-c', PYTHON_STATUS_OF_API_ERROR, file], {
    cwd,
    env: { ...env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: join(projectRoot, 'sdk', 'python') },
  });
}

/** The status an SDK sample's process ended on: 200 for a success, else the status of the ApiError it died of. */
export function sdkStatus(result: SampleRun): number {
  if (result.code === 0) return 200;
  // ApiError's own field, as node prints an uncaught error (`status: 404`) and Python its repr (`status=404`).
  return Number(/\bstatus[:=] ?(\d{3})\b/.exec(result.err)?.[1] ?? -1);
}
