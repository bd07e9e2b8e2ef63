import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../support/api.js';
import { compileTypeScript, runProcess, runPython, runShell } from '../support/samples.js';
import { stack } from '../support/stack.js';
import { projectRoot } from '../../lib/paths.js';
import { SAMPLE_KEY_VARIABLE } from '../../api/code-samples.js';

/** The README's fenced blocks whose info string says `quick-start`, by language, as printed. */
function quickStartBlocks(): Record<string, string> {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const blocks: Record<string, string> = {};
  for (const [, language, source] of readme.matchAll(/^```(\w+) quick-start\n([\s\S]*?)^```$/gm)) blocks[language!] = source!;
  return blocks;
}

describe('README quick start: a test mailing created, moved to posted and read, in curl, TypeScript and Python, as printed', function () {
  this.timeout(600_000);
  let dir: string;
  let env: Record<string, string>;
  let blocks: Record<string, string>;
  // Printed for `npm start`'s address; the suite's API listens elsewhere.
  const here = (source: string) => source.replaceAll('http://localhost:3000', stack().api.url);

  before(async () => {
    env = { [SAMPLE_KEY_VARIABLE]: (await createAccount({ balanceCents: 10_000 })).testKey };
    blocks = quickStartBlocks();
    dir = mkdtempSync(join(tmpdir(), 'readme-quick-start-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('has the three blocks, each of three calls (create, advance, read)', () => {
    expect(blocks).to.have.keys('sh', 'ts', 'python');
    expect(blocks.sh!.match(/^\s*(id=\$\()?curl /gm)).to.have.length(3);
  });

  it('runs the curl block twice: each run a new mailing, posted', async () => {
    const ids = new Set<string>();
    for (const attempt of [1, 2]) {
      const result = await runShell(here(blocks.sh!), dir, env);
      expect(result.code, result.err).to.equal(0);
      expect(result.statuses, `run ${attempt}: ${result.out}`).to.deep.equal([201, 200, 200]);
      expect(result.replayed, `run ${attempt}`).to.deep.equal([false, false, false]);
      // The advance's answer, then the read's, one after the other on stdout.
      const read = JSON.parse(result.out.slice(result.out.lastIndexOf('}{') + 1));
      expect(read, `run ${attempt}`).to.include({ status: 'posted', test: true });
      ids.add(read.id);
    }
    expect(ids.size).to.equal(2);
  });

  it('compiles the TypeScript block with tsc against the built SDK and runs it twice with node', async () => {
    const ts = join(dir, 'ts');
    const { quickStart } = await compileTypeScript(ts, { quickStart: here(blocks.ts!) });
    for (const attempt of [1, 2]) {
      const result = await runProcess(process.execPath, [quickStart!], { cwd: ts, env });
      expect(result.code, `run ${attempt}: ${result.err}`).to.equal(0);
      expect(result.out.trim()).to.match(/^[0-9a-f-]{36} posted$/);
    }
  });

  it('runs the Python block twice with the SDK’s venv', async () => {
    const py = join(dir, 'py');
    mkdirSync(py);
    writeFileSync(join(py, 'quick_start.py'), here(blocks.python!));
    for (const attempt of [1, 2]) {
      const result = await runPython(join(py, 'quick_start.py'), py, env);
      expect(result.code, `run ${attempt}: ${result.err}`).to.equal(0);
      expect(result.out.trim()).to.match(/^[0-9a-f-]{36} .*posted/i);
    }
  });
});
