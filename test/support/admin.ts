import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { distRoot } from '../../lib/paths.js';

const run = promisify(execFile);

/** The admin CLI as operators run it (DESIGN.md §3), against the test database: its exit code and JSON output. */

export async function admin(args: string[], env: Record<string, string> = {}): Promise<{ code: number; json: any }> {
  try {
    const { stdout } = await run(process.execPath, [join(distRoot, 'scripts', 'admin.js'), ...args], { env: { ...process.env, ...env } });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, json: JSON.parse(failed.stdout) };
  }
}
