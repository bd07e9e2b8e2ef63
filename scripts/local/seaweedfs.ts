import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';
import { toolsCacheDir, weedPath } from '../../lib/config.js';
import { freePort } from '../../lib/net/ports.js';
import { resolveGoTool } from './go-tool.js';
import { stopChild } from './child-process.js';
import { StartupError, firstLine } from './startup-error.js';

/**
 * SeaweedFS (Apache-2.0), an S3-compatible object store, for the tests of DOCUMENT_STORE=s3
 * (test/e2e/document-store.test.ts): `weed` found on PATH or WEED_PATH, else built once into the
 * tools cache, like helm (scripts/local/helm.ts). Not with `go install …/weed@version`: SeaweedFS's
 * go.mod has a replace directive, which go install refuses; scripts/seaweedfs/ is its command
 * built with `go build` from a go.mod that pins SeaweedFS (by its commit's pseudo-version: its tags
 * are not Go module versions) and every dependency (go.sum). Keyed by those sources.
 */
export const SEAWEEDFS_VERSION = 'v0.0.0-20261109003541-7506e5f91cd6';
const SOURCE_DIR = join(projectRoot, 'scripts', 'seaweedfs');

function sourcesKey(): string {
  const hash = createHash('sha256');
  for (const file of ['go.mod', 'go.sum', 'main.go']) hash.update(readFileSync(join(SOURCE_DIR, file)));
  return hash.digest('hex').slice(0, 12);
}

export function weedCacheDir(): string {
  return join(toolsCacheDir(), `seaweedfs-${sourcesKey()}`);
}

/** PATH, then WEED_PATH, then the cache keyed by its sources; otherwise built into the cache with Go (several minutes the first time). */
export function resolveWeed(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<string> {
  return resolveGoTool(
    {
      component: 'SeaweedFS',
      binary: 'weed',
      module: `github.com/seaweedfs/seaweedfs@${SEAWEEDFS_VERSION} (scripts/seaweedfs)`,
      sourceDir: SOURCE_DIR,
      cacheDir: weedCacheDir(),
      pathVariable: 'WEED_PATH',
      pathValue: weedPath(),
      withoutGo: 'Install Go or SeaweedFS, or set WEED_PATH to a weed binary',
      whenBuildFails: 'Check that the Go module proxy is reachable (the output above says why), or set WEED_PATH',
    },
    log,
  );
}

/** The ports of one SeaweedFS server: the same ones again when it is restarted over its data. */
export interface WeedPorts {
  master: number;
  masterGrpc: number;
  volume: number;
  volumeGrpc: number;
  filer: number;
  filerGrpc: number;
  s3: number;
  s3Grpc: number;
}

export async function freeWeedPorts(): Promise<WeedPorts> {
  const ports: number[] = [];
  while (ports.length < 8) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc] = ports as [number, number, number, number, number, number, number, number];
  return { master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc };
}

export interface RunningWeed {
  /** The S3 gateway, e.g. http://127.0.0.1:8333 (path-style). */
  endpoint: string;
  pid: number;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * `weed server` with its S3 gateway, everything on 127.0.0.1 and the given ports, its data in
 * `dataDir` (kept over a restart). Answers once the gateway answers HTTP; its first writes may
 * still wait for a volume (the tests retry their first bucket creation).
 */
export async function startWeed(binary: string, dataDir: string, ports: WeedPorts): Promise<RunningWeed> {
  const args = [
    'server',
    '-ip=127.0.0.1',
    '-ip.bind=127.0.0.1',
    `-dir=${dataDir}`,
    `-master.port=${ports.master}`,
    `-master.port.grpc=${ports.masterGrpc}`,
    '-master.volumeSizeLimitMB=64',
    `-volume.port=${ports.volume}`,
    `-volume.port.grpc=${ports.volumeGrpc}`,
    '-volume.max=16',
    '-filer',
    `-filer.port=${ports.filer}`,
    `-filer.port.grpc=${ports.filerGrpc}`,
    '-s3',
    `-s3.port=${ports.s3}`,
    `-s3.port.grpc=${ports.s3Grpc}`,
    // Its Iceberg and Lance catalogs would take fixed ports (8181, 9101).
    '-s3.port.iceberg=0',
    '-s3.port.lance=0',
  ];
  const child: ChildProcess = spawn(binary, args, { cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
  const stopOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', stopOnExit);
  let output = '';
  const keep = (chunk: Buffer): void => void (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const endpoint = `http://127.0.0.1:${ports.s3}`;
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new StartupError('SeaweedFS', `could not run ${binary} (${firstLine(error)})`, 'Set WEED_PATH to a working weed')));
    child.once('exit', (code) =>
      reject(new StartupError('SeaweedFS', `weed exited with code ${code} before its S3 gateway answered`, `Its output: ${output.slice(-600)}`)),
    );
  });
  exited.catch(() => undefined);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const answered = await Promise.race([
      fetch(endpoint + '/').then(
        () => true,
        () => false,
      ),
      exited,
    ]);
    if (answered) break;
    if (Date.now() > deadline) {
      await stopChild(child, 'SIGKILL', 0);
      throw new StartupError('SeaweedFS', 'its S3 gateway did not answer within 90 s', `Its output: ${output.slice(-600)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    endpoint,
    pid: child.pid!,
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      await stopChild(child, 'SIGTERM', 5000);
    },
  };
}
