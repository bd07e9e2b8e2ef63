import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, createAccount, type TestAccount } from '../support/api.js';
import { compileTypeScript, runProcess, runPython, runShell, sdkStatus } from '../support/samples.js';
import { stack } from '../support/stack.js';
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
  eraseMailing: 404,
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

  // In one account, one after the other: a key shared by two samples would be 422 idempotency_key_reused at the second.
  it('runs every curl sample twice with bash: each POST succeeds both times under a fresh key (the quote’s PDF is accepted)', async () => {
    for (const operation of operations)
      for (const attempt of [1, 2]) {
        const result = await runShell(operation.samples.Shell!, dir, env);
        expect(result.code, `${operation.operationId}: ${result.err}`).to.equal(0);
        expect(result.statuses, operation.operationId).to.have.length(1);
        // The same key twice would be answered again (Idempotent-Replayed), not run again.
        expect(result.replayed, operation.operationId).to.deep.equal([false]);
        expectAnswer(operation, 'curl', attempt, result.statuses[0]!, result.out);
      }
  });

  it('compiles every TypeScript sample with tsc against the built SDK, and runs each twice with node', async () => {
    const ts = join(dir, 'ts');
    const compiled = await compileTypeScript(ts, Object.fromEntries(operations.map((o) => [o.operationId, o.samples.TypeScript!])));
    for (const operation of operations)
      for (const attempt of [1, 2]) {
        const result = await runProcess(process.execPath, [compiled[operation.operationId]!], { cwd: ts, env });
        expectAnswer(operation, 'TypeScript', attempt, sdkStatus(result), result.out + result.err);
      }
  });

  it('runs every Python sample twice with the SDK’s venv', async function () {
    // The first run on a machine installs the pinned venv from PyPI.
    this.timeout(900_000);
    const py = join(dir, 'py');
    mkdirSync(py);
    const withPython = operations.filter((o) => o.samples.Python);
    // Only the docs page and its script, a browser's, have none.
    expect(operations.filter((o) => !o.samples.Python).map((o) => o.operationId)).to.have.members(['getDocs', 'getDocsScript']);
    for (const operation of withPython) {
      const file = join(py, `${operation.operationId}.py`);
      writeFileSync(file, operation.samples.Python!);
      for (const attempt of [1, 2]) {
        const result = await runPython(file, py, env);
        expectAnswer(operation, 'Python', attempt, sdkStatus(result), result.out + result.err);
      }
    }
  });
});
