import { join } from 'node:path';
import { toolsCacheDir } from '../../lib/config.js';
import { resolveGoTool } from './go-tool.js';

export const TEMPORAL_CLI_VERSION = '1.5.1';
const MODULE = `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`;

/** Outside the clone, keyed by version, so every clone and CI run on this machine shares one build. */
export function temporalCacheDir(): string {
  return join(toolsCacheDir(), `temporal-${TEMPORAL_CLI_VERSION}`);
}

/**
 * Finds the `temporal` CLI (which bundles the dev server and the Web UI): PATH, then
 * TEMPORAL_CLI_PATH, then the version-keyed cache; otherwise builds it into the cache with Go.
 */
export function resolveTemporalCli(cliPath: string | undefined, log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<string> {
  return resolveGoTool(
    {
      component: 'Temporal',
      binary: 'temporal',
      module: MODULE,
      cacheDir: temporalCacheDir(),
      pathVariable: 'TEMPORAL_CLI_PATH',
      pathValue: cliPath,
      withoutGo: 'Install Go or the temporal CLI, or set TEMPORAL_ADDRESS to a Temporal server you run',
      whenBuildFails: 'Check that the Go module proxy is reachable (the output above says why), or set TEMPORAL_CLI_PATH or TEMPORAL_ADDRESS',
    },
    log,
  );
}
