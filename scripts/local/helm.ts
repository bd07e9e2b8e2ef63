import { join } from 'node:path';
import { helmPath, toolsCacheDir } from '../../lib/config.js';
import { resolveGoTool } from './go-tool.js';

/**
 * Helm, for the chart's checks (test/e2e/helm-chart.test.ts: `helm lint` and `helm template` of
 * deploy/helm/svc-postal with each values file): found on PATH or HELM_PATH, else built once with
 * `go install` into the tools cache, like the temporal CLI (scripts/local/temporal-cli.ts).
 */
export const HELM_VERSION = '3.21.4';
const MODULE = `helm.sh/helm/v3/cmd/helm@v${HELM_VERSION}`;

export function helmCacheDir(): string {
  return join(toolsCacheDir(), `helm-${HELM_VERSION}`);
}

/** PATH, then HELM_PATH, then the version-keyed cache; otherwise built into the cache with Go (about a minute). */
export function resolveHelm(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<string> {
  return resolveGoTool(
    {
      component: 'Helm',
      binary: 'helm',
      module: MODULE,
      cacheDir: helmCacheDir(),
      pathVariable: 'HELM_PATH',
      pathValue: helmPath(),
      withoutGo: 'Install Go or helm (v3), or set HELM_PATH to a helm binary',
      whenBuildFails: 'Check that the Go module proxy is reachable (the output above says why), or set HELM_PATH',
    },
    log,
  );
}
