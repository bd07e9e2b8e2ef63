import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { stripeMockPath, toolsCacheDir } from '../../lib/config.js';
import { resolveGoTool } from './go-tool.js';
import { stopChild } from './child-process.js';
import { StartupError, firstLine } from './startup-error.js';
import { PORT_TAKEN_OUTPUT, PortTakenError } from './ports.js';

/**
 * stripe-mock, Stripe's own API simulator (a Go program), for local runs and tests without a
 * STRIPE_SECRET_KEY: found on PATH or STRIPE_MOCK_PATH, else built once with `go install` into the
 * tools cache, like the temporal CLI (scripts/local/temporal-cli.ts).
 */
export const STRIPE_MOCK_VERSION = '0.203.0';
const MODULE = `github.com/stripe/stripe-mock@v${STRIPE_MOCK_VERSION}`;

export function stripeMockCacheDir(): string {
  return join(toolsCacheDir(), `stripe-mock-${STRIPE_MOCK_VERSION}`);
}

/** PATH, then STRIPE_MOCK_PATH, then the version-keyed cache; otherwise built into the cache with Go. */
export function resolveStripeMock(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<string> {
  return resolveGoTool(
    {
      component: 'stripe-mock',
      binary: 'stripe-mock',
      module: MODULE,
      cacheDir: stripeMockCacheDir(),
      pathVariable: 'STRIPE_MOCK_PATH',
      pathValue: stripeMockPath(),
      withoutGo: 'Install Go or stripe-mock, or set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to use Stripe itself',
      whenBuildFails: 'Check that the Go module proxy is reachable, or set STRIPE_MOCK_PATH',
    },
    log,
  );
}

export interface RunningStripeMock {
  /** e.g. http://127.0.0.1:12111 */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts stripe-mock on 127.0.0.1 (`port` 0: any free port) and answers once it listens. HTTP only
 * matters; its HTTPS listener is put on a free loopback port too, so it never takes 12112 from anyone.
 */
export async function startStripeMock(binary: string, port: number): Promise<RunningStripeMock> {
  const child: ChildProcess = spawn(binary, ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:0'], {
    // stripe-mock also reads PORT: ours is the API's.
    env: { ...process.env, PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stopOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', stopOnExit);
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new StartupError('stripe-mock', 'did not start listening within 15 s', `Its output: ${output.slice(-300)}`)), 15_000);
    const onOutput = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Listening for HTTP at address: 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.removeListener('data', onOutput);
        child.stderr!.removeListener('data', onOutput);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout!.on('data', onOutput);
    child.stderr!.on('data', onOutput);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new StartupError('stripe-mock', `could not run ${binary} (${firstLine(error)})`, 'Set STRIPE_MOCK_PATH to a working stripe-mock'));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const problem = `exited with code ${code} before listening: ${firstLine(output.trim() || 'no output')}`;
      reject(
        PORT_TAKEN_OUTPUT.test(output)
          ? new PortTakenError('stripe-mock', problem, 'Its port was taken')
          : new StartupError('stripe-mock', problem, 'Is the port taken?'),
      );
    });
  });
  // Its request log is not ours to print.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url,
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      await stopChild(child, 'SIGTERM', 3000);
    },
  };
}
