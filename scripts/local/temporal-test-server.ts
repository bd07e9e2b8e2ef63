import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isExecutable } from '../../lib/executables.js';
import { temporalTestServerPath, toolsCacheDir } from '../../lib/config.js';
import { StartupError, firstLine } from './startup-error.js';

/**
 * Temporal's time-skipping test server (part of the Java SDK), for the tests that run the real
 * schedules (hours of retries) in seconds. `@temporalio/testing` would download it; here it comes
 * from Maven Central, a registry this machine reaches, through Maven.
 */
export const TEMPORAL_TEST_SERVER_VERSION = '1.31.0';
const ARTIFACT = `io.temporal:temporal-test-server:${TEMPORAL_TEST_SERVER_VERSION}`;
const MAIN_CLASS = 'io.temporal.testserver.TestServer';
const WRAPPER = 'temporal-test-server';

/** Outside the clone, keyed by version, so every clone and CI run on this machine shares one copy. */
export function temporalTestServerCacheDir(): string {
  return join(toolsCacheDir(), `temporal-test-server-${TEMPORAL_TEST_SERVER_VERSION}`);
}

/** A pom whose only purpose is to name the artifact: Maven resolves and copies its jars. */
function pom(): string {
  const [groupId, artifactId, version] = ARTIFACT.split(':');
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.svc-postal</groupId>
  <artifactId>temporal-test-server-jars</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version></dependency>
  </dependencies>
</project>
`;
}

/**
 * The executable: the jars beside it, the port and flags passed on (`<port>
 * [--enable-time-skipping]`), `exec` so that stopping it stops the JVM itself.
 */
const wrapperScript = (): string => `#!/bin/sh
# Temporal test server ${TEMPORAL_TEST_SERVER_VERSION} (${ARTIFACT}), built by scripts/local/temporal-test-server.ts.
exec java -cp "$(dirname "$0")/lib/*" ${MAIN_CLASS} "$@"
`;

function copyDependencies(folder: string, log: (line: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const args = [
      '-B',
      '-q',
      '-Dstyle.color=never',
      '-f',
      join(folder, 'pom.xml'),
      'dependency:copy-dependencies',
      `-DoutputDirectory=${join(folder, 'lib')}`,
      '-DincludeScope=runtime',
    ];
    const child = spawn('mvn', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const relay = (chunk: Buffer): void =>
      chunk
        .toString()
        // eslint-disable-next-line no-control-regex
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split('\n')
        .filter((line) => line.trim())
        .forEach((line) => log('  ' + line));
    child.stdout.on('data', relay);
    child.stderr.on('data', relay);
    child.on('error', (error) =>
      reject(new StartupError('Temporal test server', `mvn could not run (${firstLine(error)})`, 'Install Maven, or set TEMPORAL_TEST_SERVER_PATH')),
    );
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/**
 * Finds Temporal's test server: TEMPORAL_TEST_SERVER_PATH, then the version-keyed cache;
 * otherwise copies its jars from Maven Central into the cache with Maven (once per machine, a few
 * seconds when the local Maven repository has them) and writes the wrapper that runs them.
 */
export async function resolveTemporalTestServer(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<string> {
  const fromEnv = temporalTestServerPath();
  if (fromEnv) {
    if (!isExecutable(fromEnv))
      throw new StartupError(
        'Temporal test server',
        `TEMPORAL_TEST_SERVER_PATH=${fromEnv} is not an executable file`,
        'Point it at a test server, or unset it',
      );
    return fromEnv;
  }
  const cacheDir = temporalTestServerCacheDir();
  const cached = join(cacheDir, WRAPPER);
  if (isExecutable(cached)) return cached;

  if (spawnSync('java', ['-version']).status !== 0) {
    throw new StartupError(
      'Temporal test server',
      'java is not on PATH (the test server is a Java program)',
      'Install a JDK 11 or later, or set TEMPORAL_TEST_SERVER_PATH',
    );
  }
  if (spawnSync('mvn', ['--version']).status !== 0) {
    throw new StartupError(
      'Temporal test server',
      `Maven (mvn) is missing to fetch ${ARTIFACT}`,
      'Install Maven, or set TEMPORAL_TEST_SERVER_PATH to a test server',
    );
  }
  // Built beside the cache and renamed into place: a half-built folder never looks ready, and two
  // runs building at once both end with one complete copy.
  mkdirSync(toolsCacheDir(), { recursive: true });
  const building = mkdtempSync(join(toolsCacheDir(), `.temporal-test-server-${TEMPORAL_TEST_SERVER_VERSION}-`));
  try {
    log(`Fetching the Temporal test server ${TEMPORAL_TEST_SERVER_VERSION} (${ARTIFACT}) into ${cacheDir} (first run only)…`);
    writeFileSync(join(building, 'pom.xml'), pom());
    const code = await copyDependencies(building, log);
    if (code !== 0 || !existsSync(join(building, 'lib', `temporal-test-server-${TEMPORAL_TEST_SERVER_VERSION}.jar`))) {
      throw new StartupError(
        'Temporal test server',
        `mvn dependency:copy-dependencies of ${ARTIFACT} failed (exit ${code})`,
        'Check that Maven Central (or your Maven mirror) is reachable (the output above says why), or set TEMPORAL_TEST_SERVER_PATH',
      );
    }
    writeFileSync(join(building, WRAPPER), wrapperScript());
    chmodSync(join(building, WRAPPER), 0o755);
    // A folder left without its wrapper (by hand) is no copy: replaced.
    if (existsSync(cacheDir) && !isExecutable(cached)) rmSync(cacheDir, { recursive: true, force: true });
    try {
      renameSync(building, cacheDir);
    } catch (error) {
      // Another run finished first: its copy is as good.
      if (!isExecutable(cached)) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  log('Temporal test server ready: ' + cached);
  return cached;
}
