import { createReadStream, createWriteStream, readFileSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { findOnPath, isExecutable } from '../../lib/executables.js';
import { searchPath as systemSearchPath, toolsCacheDir } from '../../lib/config.js';

export type BrowserSource = 'PUPPETEER_EXECUTABLE_PATH' | 'system' | 'packaged';

export interface BrowserChoice {
  source: BrowserSource;
  executablePath: string;
}

/** Names a system Chromium goes by on Linux distributions, most likely first. */
const SYSTEM_CHROMIUM = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

export function systemChromium(searchPath = systemSearchPath()): string | undefined {
  for (const name of SYSTEM_CHROMIUM) {
    const found = findOnPath(name, searchPath);
    if (found) return found;
  }
  return undefined;
}

/** The @sparticuz/chromium package: a headless Chromium build shipped inside its npm tarball. */
function packagedChromiumDir(): string {
  const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  return join(dirname(entry), '..');
}

/**
 * The packaged Chromium, unpacked once per machine and version into the tools cache. The package
 * ships it brotli-compressed; its own unpacker writes to a fixed /tmp path shared by every process,
 * where a second process could start a half-written binary, so we unpack to a private file and
 * rename it into place (atomic; concurrent unpackers write the same bytes).
 */
export async function packagedChromium(): Promise<string> {
  const dir = packagedChromiumDir();
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  const target = join(toolsCacheDir(), `chromium-${version}`, 'chromium');
  if (isExecutable(target)) return target;
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  try {
    await pipeline(createReadStream(join(dir, 'bin', 'chromium.br')), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }));
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return target;
}

/**
 * The browser that prints letters and proofs: PUPPETEER_EXECUTABLE_PATH, else a system Chromium,
 * else the packaged one (a bare machine has no Chromium and may have no internet).
 */
export async function chooseBrowser(options: { executablePath?: string; searchPath?: string } = {}): Promise<BrowserChoice> {
  if (options.executablePath) {
    if (!isExecutable(options.executablePath)) throw new Error(`PUPPETEER_EXECUTABLE_PATH=${options.executablePath} is not an executable file`);
    return { source: 'PUPPETEER_EXECUTABLE_PATH', executablePath: options.executablePath };
  }
  const system = systemChromium(options.searchPath);
  if (system) return { source: 'system', executablePath: system };
  return { source: 'packaged', executablePath: await packagedChromium() };
}
