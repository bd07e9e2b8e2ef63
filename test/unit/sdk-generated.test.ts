import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { GENERATED_PATHS, generateSdks } from '../../scripts/local/sdk-generation.js';
import { projectRoot } from '../../lib/paths.js';

/** What running Python or ruff leaves beside the code (ignored by git). */
const LOCAL_LITTER = new Set(['__pycache__', '.ruff_cache']);

function files(root: string, path: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string): void => {
    if (statSync(at).isDirectory())
      readdirSync(at)
        .filter((name) => !LOCAL_LITTER.has(name))
        .forEach((name) => walk(join(at, name)));
    else out.set(relative(root, at), readFileSync(at, 'utf8'));
  };
  walk(join(root, path));
  return out;
}

describe('generated SDKs (sdk/)', function () {
  // The first run on a machine installs the Python generator's venv from PyPI. Later runs still take
  // about half a minute, justified: the check is to run both real generators (@hey-api/openapi-ts,
  // openapi-python-client and ruff) on today's document; a parallel run overlaps it with other files.
  this.timeout(600_000);

  it("are today's: regenerating from the OpenAPI document gives the committed files (else npm run sdk:generate)", async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'sdk-fresh-'));
    try {
      await generateSdks(fresh);
      const committedRoot = join(projectRoot, 'sdk');
      for (const path of GENERATED_PATHS) {
        const committed = files(committedRoot, path);
        const regenerated = files(fresh, path);
        const stale = [...new Set([...committed.keys(), ...regenerated.keys()])].filter((file) => committed.get(file) !== regenerated.get(file));
        expect(stale, `sdk/ is stale against the document: run npm run sdk:generate (differs: ${stale.slice(0, 5).join(', ')})`).to.deep.equal([]);
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
