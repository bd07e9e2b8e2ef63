import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import { buildOpenApi } from '../../api/openapi.js';
import { routes } from '../../api/routes/index.js';
import { projectRoot } from '../../lib/paths.js';
import { pythonSdkTools } from './python-sdk-venv.js';

/** The server the generated clients default to: the local API of `npm start` (the SDKs' constructors take the real one). */
const LOCAL_SERVER = 'http://localhost:3000';

/** What the generators write, relative to an SDK root (sdk/ or a temporary copy): the rest of sdk/ is written by hand. */
export const GENERATED_PATHS = ['openapi.json', 'typescript/src/generated', 'python/svc_postal/generated'];

/** Today's OpenAPI document, as /v1/openapi.json serves it from a local API. */
export function openApiText(): string {
  return JSON.stringify(buildOpenApi(routes, LOCAL_SERVER), null, 2) + '\n';
}

/**
 * Writes the document and both generated clients under `root`: the same document always gives the
 * same files (no dates, no versions of the machine), so a regeneration compares byte for byte.
 */
export async function generateSdks(root: string, log: (line: string) => void = () => {}): Promise<void> {
  const document = join(root, 'openapi.json');
  mkdirSync(root, { recursive: true });
  writeFileSync(document, openApiText());

  const typescript = join(root, 'typescript', 'src', 'generated');
  rmSync(typescript, { recursive: true, force: true });
  await createClient({
    input: document,
    output: { path: typescript, module: { extension: '.js' }, tsConfigPath: null },
    // throwOnError: the hand-written client throws an ApiError for every error answer, so `data` is typed as the success body.
    // client: false: every operation requires its `client`; the generator's default one (localhost, no key, no retries,
    // no ApiError) would otherwise answer a call that forgot it.
    plugins: [{ name: '@hey-api/client-fetch', throwOnError: true }, '@hey-api/typescript', { name: '@hey-api/sdk', client: false }],
    logs: { level: 'silent' },
  });
  completeOpenEnums(join(typescript, 'types.gen.ts'));

  const python = join(root, 'python', 'svc_postal', 'generated');
  const tools = pythonSdkTools(log);
  // The generator writes a whole folder and formats it with ruff (from the venv, on PATH).
  const scratch = mkdtempSync(join(tmpdir(), 'sdk-python-'));
  try {
    const result = spawnSync(
      join(tools.bin, 'openapi-python-client'),
      [
        'generate',
        '--path',
        document,
        '--config',
        join(projectRoot, 'sdk', 'python', 'generator.yml'),
        '--meta',
        'none',
        '--output-path',
        join(scratch, 'out'),
      ],
      { encoding: 'utf8', env: { ...process.env, PATH: `${tools.bin}:${process.env.PATH ?? ''}`, RUFF_NO_CACHE: 'true' } },
    );
    if (result.status !== 0) throw new Error(`openapi-python-client failed: ${result.stdout}\n${result.stderr}`);
    rmSync(python, { recursive: true, force: true });
    cpSync(join(scratch, 'out'), python, { recursive: true });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * An open enum of the document (`anyOf: [enum, string]`) comes out as `'paid' | … | string`, which
 * TypeScript reduces to `string`: no completion. `(string & {})` still accepts a value added later
 * and the editor still offers the known ones.
 */
function completeOpenEnums(typesFile: string): void {
  const types = readFileSync(typesFile, 'utf8');
  writeFileSync(typesFile, types.replace(/('[^'\n]*') \| string\b(?! &)/g, '$1 | (string & {})'));
}
