import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';
import { k8sValidatePath, toolsCacheDir } from '../../lib/config.js';
import { resolveGoTool } from './go-tool.js';

/**
 * The strict check of the chart's manifests against the Kubernetes API's own types
 * (scripts/k8s-validate/main.go, k8s.io/api at the version its go.mod pins): built once with `go
 * build` into the tools cache, keyed by its sources, so that a change of the program or of its
 * dependencies builds it again. Nothing is downloaded at run time but Go modules, checked against
 * its go.sum.
 */
const SOURCE_DIR = join(projectRoot, 'scripts', 'k8s-validate');

function sourcesKey(): string {
  const hash = createHash('sha256');
  for (const file of ['go.mod', 'go.sum', 'main.go']) hash.update(readFileSync(join(SOURCE_DIR, file)));
  return hash.digest('hex').slice(0, 12);
}

export function resolveK8sValidate(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<string> {
  return resolveGoTool(
    {
      component: 'k8s-validate',
      binary: 'k8s-validate',
      module: 'scripts/k8s-validate',
      sourceDir: SOURCE_DIR,
      cacheDir: join(toolsCacheDir(), `k8s-validate-${sourcesKey()}`),
      pathVariable: 'K8S_VALIDATE_PATH',
      pathValue: k8sValidatePath(),
      withoutGo: 'Install Go (the chart check builds scripts/k8s-validate with it)',
      whenBuildFails: 'Check that the Go module proxy is reachable (the output above says why)',
    },
    log,
  );
}
