import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';
import { pythonSdkTools } from '../../scripts/local/python-sdk-venv.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { buildTypeScriptSdk, startSdkScene, type SdkScene } from '../support/sdk-scene.js';
import { outputOf } from '../support/samples.js';

/** A command that must succeed; its standard output. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', cwd: options.cwd, env: options.env ?? process.env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.error?.message}:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

const letterRequest = { mode: 'simple', letter: freeLetter, sender, recipient };

/** The quick start of the README, as an integrator runs it from the installed package: create a test mailing, advance it, read it. */
const typeScriptQuickStart = `
import { randomUUID } from 'node:crypto';
import { createClient } from 'svc-postal';

const svc = createClient({ apiKey: process.env.SVC_API_KEY, baseUrl: process.env.SVC_BASE_URL });
const created = await svc.mailings.create(${JSON.stringify(letterRequest)}, { idempotencyKey: randomUUID() });
await svc.mailings.advance(created.id);
const read = await svc.mailings.get(created.id);
console.log(JSON.stringify({ created: created.status, read: read.status, step: read.step }));
`;

const pythonQuickStart = `
import json, os, uuid
from svc_postal import SvcPostal

svc = SvcPostal(api_key=os.environ["SVC_API_KEY"], base_url=os.environ["SVC_BASE_URL"])
created = svc.mailings.create(json.loads(${JSON.stringify(JSON.stringify(letterRequest))}), idempotency_key=str(uuid.uuid4()))
svc.mailings.advance(created.id)
read = svc.mailings.get(created.id)
print(json.dumps({"created": str(created.status), "read": str(read.status), "step": read.step}))
`;

/**
 * Both SDKs as their users get them (issue 52): the npm tarball and the Python wheel, built from
 * sdk/, installed into a fresh project outside the clone, and the quick start run against the stack.
 * What the packages leave out (a file not listed, a missing dependency, py.typed) fails here, not
 * at a customer's.
 */
describe('the SDKs as packages, installed outside the clone', function () {
  this.timeout(600_000);
  let work: string;
  let scene: SdkScene;

  before(() => (work = mkdtempSync(join(tmpdir(), 'svc-postal-packages-'))));
  after(() => rmSync(work, { recursive: true, force: true }));
  beforeEach(async () => (scene = await startSdkScene()));
  afterEach(() => scene.stop());

  const env = (): Record<string, string> => ({ SVC_API_KEY: scene.account.testKey, SVC_BASE_URL: scene.proxy.url });

  it('TypeScript: npm pack, npm install of the tarball in a new project, the quick start', async () => {
    await buildTypeScriptSdk();
    const sdk = join(projectRoot, 'sdk', 'typescript');
    // Built just above with the project's TypeScript: the tarball's prepack would need the SDK's own dev dependencies.
    const [packed] = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: sdk })) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed!.files.map((f) => f.path);
    expect(files).to.include.members(['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts']);
    expect(files.filter((f) => f.startsWith('src/'))).to.deep.equal([]);

    const app = join(work, 'ts-app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'quick-start', private: true, type: 'module' }));
    // The SDK has no dependencies: installed from the tarball alone, without the registry.
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(work, packed!.filename)], { cwd: app });
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'svc-postal', 'package.json'), 'utf8')) as { version: string; license: string };
    expect(installed).to.include({ license: 'MIT' });
    writeFileSync(join(app, 'quick-start.mjs'), typeScriptQuickStart);
    expect(JSON.parse(await outputOf(process.execPath, ['quick-start.mjs'], { cwd: app, env: env() }))).to.deep.equal({
      created: 'paid',
      read: 'printed',
      step: 1,
    });
  });

  it('Python: a wheel, pip install into a new venv, the quick start, py.typed shipped', async () => {
    const tools = pythonSdkTools((line) => process.stderr.write(line + '\n'));
    const wheels = join(work, 'wheels');
    run(join(tools.bin, 'pip'), ['wheel', '--quiet', '--disable-pip-version-check', '--no-deps', '--wheel-dir', wheels, join(projectRoot, 'sdk', 'python')]);
    const venv = join(work, 'py-app');
    run(tools.python, ['-m', 'venv', venv]);
    const wheel = run('sh', ['-c', `ls ${wheels}/svc_postal-*.whl`]).trim();
    run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', wheel]);
    const where = run(join(venv, 'bin', 'python'), ['-c', 'import svc_postal, os; print(os.path.dirname(svc_postal.__file__))']).trim();
    expect(where.startsWith(venv), 'imported from the venv, not the clone').to.equal(true);
    expect(run('sh', ['-c', `ls ${where}`]).split('\n')).to.include('py.typed');
    writeFileSync(join(work, 'quick_start.py'), pythonQuickStart);
    const answer = JSON.parse(
      await outputOf(join(venv, 'bin', 'python'), [join(work, 'quick_start.py')], { cwd: work, env: { ...env(), PYTHONPATH: '' } }),
    ) as Record<string, unknown>;
    expect(answer).to.deep.equal({ created: 'paid', read: 'printed', step: 1 });
  });
});
