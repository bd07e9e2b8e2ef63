import type { ChildProcess } from 'node:child_process';
import type { WriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Stops a server we started: `signal` (each server's own orderly shutdown), then SIGKILL if it has
 * not exited after `graceMs`. Resolves once it has exited.
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A server we spawned and saw start: stopping it closes its log too. */
export interface StartedServer {
  stop(signal: NodeJS.Signals, graceMs: number): Promise<void>;
}

/**
 * Waits until a server we spawned is `ready`, unless `early` (its exit or its failure to run, which
 * throws what to tell the user) comes first; then it is killed, its log closed, and the error
 * thrown. From here on it dies with this process. `settle`: promises of `ready` that may still
 * reject once the race is over, so that their rejection is not left unhandled.
 */
export async function awaitServerStart(
  child: ChildProcess,
  log: WriteStream,
  ready: Promise<unknown>,
  early: Promise<never>,
  settle: Promise<unknown>[] = [],
): Promise<StartedServer> {
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  try {
    await Promise.race([ready, early]);
  } catch (error) {
    process.removeListener('exit', killOnExit);
    await stopChild(child, 'SIGKILL', 0);
    log.end();
    throw error;
  } finally {
    for (const pending of [early, ...settle]) pending.catch(() => undefined);
  }
  return {
    async stop(signal, graceMs) {
      process.removeListener('exit', killOnExit);
      await stopChild(child, signal, graceMs);
      log.end();
    },
  };
}
