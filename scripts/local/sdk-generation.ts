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

/** The marker openapi-python-client's model template (sdk/python/templates) reads to make a model's from_dict refuse unknown keys. */
const REFUSE_UNKNOWN_KEYS = 'x-refuse-unknown-keys';

type Schema = Record<string, unknown>;

/**
 * The document the Python generator reads: today's, with every closed object a request body
 * reaches (its components and inline objects) marked REFUSE_UNKNOWN_KEYS. A key a request model
 * does not know (`send_at` for `sendAt`) would otherwise be dropped and a different request sent;
 * answers are left unmarked, so a key added to an answer later never breaks a client. Requests
 * and answers share no component (test/unit/sdk-python.test.ts checks it), so no answer is marked.
 */
export function pythonGeneratorDocument(text: string): string {
  const document = JSON.parse(text) as { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };
  const marked = new Set<Schema>();
  const mark = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(mark);
    if (typeof node !== 'object' || node === null || marked.has(node as Schema)) return;
    const schema = node as Schema;
    marked.add(schema);
    if (schema.type === 'object' && schema.additionalProperties === false) schema[REFUSE_UNKNOWN_KEYS] = true;
    if (typeof schema.$ref === 'string') mark(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]);
    for (const value of Object.values(schema)) mark(value);
  };
  for (const operations of Object.values(document.paths))
    for (const operation of Object.values(operations)) if (typeof operation === 'object' && operation.requestBody) mark(operation.requestBody);
  return JSON.stringify(document, null, 2) + '\n';
}

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
    const pythonDocument = join(scratch, 'openapi.json');
    writeFileSync(pythonDocument, pythonGeneratorDocument(readFileSync(document, 'utf8')));
    const result = spawnSync(
      join(tools.bin, 'openapi-python-client'),
      [
        'generate',
        '--path',
        pythonDocument,
        '--config',
        join(projectRoot, 'sdk', 'python', 'generator.yml'),
        // Three of the generator's templates, changed (sdk/python/generator.yml): request models refuse unknown keys (pythonGeneratorDocument).
        '--custom-template-path',
        join(projectRoot, 'sdk', 'python', 'templates'),
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
    keepRetiredPythonEnums(join(python, 'models'));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Enums the document no longer has, which code written for an earlier major version of the Python
 * SDK may import: each kept as it was generated, exported from the models as before. A str enum
 * still compares equal to its value, so such code keeps working with the wider field.
 */
const RETIRED_PYTHON_ENUMS = [
  // The address's country was FR only until letters abroad (issue 55): now any ISO 3166-1 alpha-2 code.
  { module: 'mailing_address_country', name: 'MailingAddressCountry', values: ['FR'] },
];

function keepRetiredPythonEnums(models: string): void {
  const index = join(models, '__init__.py');
  let exported = readFileSync(index, 'utf8');
  for (const retired of RETIRED_PYTHON_ENUMS) {
    if (exported.includes(`import ${retired.name}\n`)) continue;
    const members = retired.values.map((value) => `    ${value} = "${value}"\n`).join('');
    writeFileSync(
      join(models, `${retired.module}.py`),
      `from enum import StrEnum\n\n\nclass ${retired.name}(StrEnum):\n${members}\n    def __str__(self) -> str:\n        return str(self.value)\n`,
    );
    exported += `\n# No longer in the API's document; kept for code written for an earlier SDK (scripts/local/sdk-generation.ts).\nfrom .${retired.module} import ${retired.name}  # noqa: E402\n\n__all__ += ("${retired.name}",)\n`;
  }
  writeFileSync(index, exported);
}

/**
 * An open enum of the document (`anyOf: [enum, string]`) comes out as `'paid' | … | string`, or as
 * `MailingStatus | string` where the enum is a named component, which TypeScript reduces to
 * `string`: no completion. `(string & {})` still accepts a value added later and the editor still
 * offers the known ones.
 */
function completeOpenEnums(typesFile: string): void {
  const types = readFileSync(typesFile, 'utf8');
  // The named enums: aliases of string literals only (`export type MailingStatus = 'paid' | …;`).
  const enums = new Set(
    [...types.matchAll(/^export type (\w+) = '[^\n]*';$/gm)].filter(([line]) => /^[^=]+= ('[^'\n]*'(?: \| '[^'\n]*')*);$/.test(line)).map(([, name]) => name!),
  );
  writeFileSync(
    typesFile,
    types
      .replace(/('[^'\n]*') \| string\b(?! &)/g, '$1 | (string & {})')
      .replace(/\b(\w+) \| string\b(?! &)/g, (union, name: string) => (enums.has(name) ? `${name} | (string & {})` : union)),
  );
}
