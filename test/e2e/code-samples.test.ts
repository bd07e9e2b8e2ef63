import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, createAccount, type TestAccount } from '../support/api.js';
import { buildTypeScriptSdk } from '../support/sdk-scene.js';
import { stack } from '../support/stack.js';
import { projectRoot } from '../../lib/paths.js';
import { pythonSdkTools } from '../../scripts/local/python-sdk-venv.js';
import { SAMPLE_KEY_VARIABLE } from '../../api/code-samples.js';

type Json = Record<string, any>;

/** One operation's samples, as the served document carries them. */
interface Operation {
  operationId: string;
  method: string;
  samples: Record<string, string>;
}

/**
 * What each sample answers when run as pasted: 2xx, except where the example names a mailing, a
 * batch or a proof link that only the reader has (the placeholder id is not found).
 */
const PLACEHOLDER_ANSWERS: Record<string, number> = {
  getMailingBatch: 404,
  getMailing: 404,
  getMailingProof: 404,
  cancelMailing: 404,
  advanceTestMailing: 404,
  downloadProof: 404,
};
const expectedStatus = (operationId: string): number | 'success' => PLACEHOLDER_ANSWERS[operationId] ?? 'success';

function expectAnswer(operation: Operation, language: string, run: number, status: number, output: string): void {
  const expected = expectedStatus(operation.operationId);
  const what = `${operation.operationId} (${language}, run ${run}): ${output.slice(-600)}`;
  if (expected === 'success') expect(status, what).to.be.within(200, 299);
  else expect(status, what).to.equal(expected);
}

/**
 * Runs a command and answers its exit code and both outputs; asynchronously, as the API under
 * test answers from this very process.
 */
function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    // The suite's relative NODE_EXTRA_CA_CERTS means nothing from the samples' directory.
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: undefined, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out, err });
    });
  });
}

/** The status an SDK sample's process ended on: its printed success, or the ApiError it died of. */
function sdkStatus(result: { code: number; out: string; err: string }): number {
  if (result.code === 0) return 200;
  // ApiError's own field, as node prints an uncaught error (`status: 404`) and Python its repr (`status=404`).
  return Number(/\bstatus[:=] ?(\d{3})\b/.exec(result.err)?.[1] ?? -1);
}

/** Runs a Python sample unchanged; an ApiError that ends it is printed with its status (its str() is the message alone). */
const PYTHON_STATUS_OF_API_ERROR = `
import runpy, sys
from svc_postal import ApiError
try:
    runpy.run_path(sys.argv[1], run_name="__main__")
except ApiError as error:
    print(repr(error), file=sys.stderr)
    sys.exit(1)
`;

describe('The reference’s code samples, run as pasted, twice', function () {
  this.timeout(600_000);
  let account: TestAccount;
  let operations: Operation[];
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    account = await createAccount({ balanceCents: 10_000 });
    env = { [SAMPLE_KEY_VARIABLE]: account.testKey };
    const doc = (await call('GET', '/v1/openapi.json')).body as Json;
    operations = Object.values(doc.paths as Json).flatMap((methods: Json) =>
      Object.entries(methods).map(([method, op]: [string, Json]) => ({
        operationId: op.operationId as string,
        method: method.toUpperCase(),
        samples: Object.fromEntries((op['x-codeSamples'] as { lang: string; source: string }[]).map((s) => [s.lang, s.source])),
      })),
    );
    dir = mkdtempSync(join(tmpdir(), 'code-samples-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every operation a curl and a TypeScript sample against the serving address, the key from the environment, a fresh Idempotency-Key on each POST', () => {
    expect(operations.length).to.be.greaterThan(30);
    for (const operation of operations) {
      expect(operation.samples.Shell, operation.operationId).to.include(stack().api.url);
      expect(operation.samples.TypeScript, operation.operationId).to.include(`baseUrl: "${stack().api.url}"`);
      if (operation.method === 'POST') {
        expect(operation.samples.Shell).to.include('-H "Idempotency-Key: $(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)"');
        expect(operation.samples.TypeScript).to.include(`'Idempotency-Key': randomUUID()`);
        if (operation.samples.Python) expect(operation.samples.Python).to.include('idempotency_key=str(uuid.uuid4())');
      }
      expect(JSON.stringify(operation.samples)).not.to.match(/svc_test_…|7f3c1a52/);
    }
  });

  it('runs every curl sample twice with bash: each POST succeeds both times under a fresh key (the quote’s PDF is accepted)', async () => {
    // The shell is the reader's: curl as written, its status printed last.
    const shim = `curl() { command curl -sS -w '\\n%{http_code}' "$@"; }\n`;
    for (const operation of operations)
      for (const attempt of [1, 2]) {
        const result = await run('bash', ['-c', shim + operation.samples.Shell!], { cwd: dir, env });
        expect(result.code, `${operation.operationId}: ${result.err}`).to.equal(0);
        const lines = result.out.trimEnd().split('\n');
        expectAnswer(operation, 'curl', attempt, Number(lines.at(-1)), result.out);
      }
  });

  it('compiles every TypeScript sample with tsc against the built SDK, and runs each twice with node', async () => {
    buildTypeScriptSdk();
    const ts = join(dir, 'ts');
    mkdirSync(join(ts, 'node_modules'), { recursive: true });
    symlinkSync(join(projectRoot, 'sdk', 'typescript'), join(ts, 'node_modules', 'svc-postal'));
    symlinkSync(join(projectRoot, 'node_modules', '@types'), join(ts, 'node_modules', '@types'));
    writeFileSync(join(ts, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(ts, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], skipLibCheck: true },
      }),
    );
    for (const operation of operations) writeFileSync(join(ts, `${operation.operationId}.ts`), operation.samples.TypeScript!);
    const tsc = await run(process.execPath, [join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: ts });
    expect(tsc.code, tsc.out + tsc.err).to.equal(0);
    for (const operation of operations)
      for (const attempt of [1, 2]) {
        const result = await run(process.execPath, [`${operation.operationId}.js`], { cwd: ts, env });
        expectAnswer(operation, 'TypeScript', attempt, sdkStatus(result), result.out + result.err);
      }
  });

  it('runs every Python sample twice with the SDK’s venv', async () => {
    // The first run on a machine installs the pinned venv from PyPI.
    const python = pythonSdkTools((line) => process.stderr.write(line + '\n')).python;
    const py = join(dir, 'py');
    mkdirSync(py);
    const withPython = operations.filter((o) => o.samples.Python);
    expect(withPython.length).to.be.greaterThan(operations.length - 4);
    for (const operation of withPython) {
      const file = join(py, `${operation.operationId}.py`);
      writeFileSync(file, operation.samples.Python!);
      for (const attempt of [1, 2]) {
        const result = await run(python, ['-c', PYTHON_STATUS_OF_API_ERROR, file], {
          cwd: py,
          env: { ...env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: join(projectRoot, 'sdk', 'python') },
        });
        const status = result.code === 0 ? Number(/^(\d{3})/.exec(result.out)?.[1] ?? 200) : sdkStatus(result);
        expectAnswer(operation, 'Python', attempt, status, result.out + result.err);
      }
    }
  });
});
