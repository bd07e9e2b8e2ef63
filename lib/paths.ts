import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json, found from this file whether it runs from source or dist/. */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot();
export const distRoot = join(projectRoot, 'dist');
export const catalogueDir = join(projectRoot, 'catalogue');

/** Local state of `npm start` (embedded Postgres, Temporal dev database, local secrets). */
export function dataDir(): string {
  return resolve(process.env.DATA_DIR ?? join(projectRoot, '.data'));
}

/**
 * Tools the project builds or unpacks once per machine (the temporal CLI, the packaged Chromium):
 * outside the clone, so every clone and CI run on this machine shares them. Keyed by version below.
 */
export function toolsCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc-postal', 'tools');
}
