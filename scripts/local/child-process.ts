import type { ChildProcess } from 'node:child_process';
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
