import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { distRoot } from '../../lib/paths.js';
import { API_NODE_FLAGS } from '../../server/node-flags.js';

const running = new Set<ChildProcess>();
// Mocha exits the process when the run ends, even after a failed hook: whatever a test started
// and did not stop is killed then, so a run never leaves an API or worker process behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Any other child a test starts (e.g. Temporal's test server): killed when the run exits, if still running. */
export function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Runs one of our entry points (dist/server/main.js, dist/worker/main.js) as a child of the test run. */
export function spawnNode(entry: 'server' | 'worker', env: Record<string, string>, stdio: 'pipe' | 'quiet' = 'quiet'): ChildProcess {
  const flags = entry === 'server' ? API_NODE_FLAGS : [];
  const child = spawn(process.execPath, [...flags, join(distRoot, entry, 'main.js')], {
    env: { ...process.env, ...env },
    stdio: stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'ignore', 'inherit'],
  });
  return track(child);
}

/** SIGKILL, as a crash or an evicted pod ends a process: no chance to drain. Resolves once it has exited. */
export async function killAbruptly(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGKILL');
  await once(child, 'exit');
}
