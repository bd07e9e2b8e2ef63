import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { distRoot } from '../../lib/paths.js';

/**
 * The access log gathers its lines into blocks before the destination sees them (lib/logger.ts).
 * A process that ends without another log line must still write every one, in order, and a pino
 * line written among them must keep its place.
 */
function runLogger(script: string): { lines: { msg: string; requestId?: string }[]; status: number | null } {
  const logger = join(distRoot, 'lib', 'logger.js');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', `const { accessLog, logger } = await import(${JSON.stringify(logger)});\n${script}`], {
    env: { ...process.env, LOG_LEVEL: 'info' },
    encoding: 'utf8',
  });
  const lines = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; requestId?: string });
  return { lines, status: run.status };
}

const accessLines = (from: number, to: number): string =>
  `for (let i = ${from}; i < ${to}; i++) accessLog.write({ requestId: 'r' + i, method: 'GET', path: '/v1/x/' + i, status: 200, ms: 1.5, account: undefined });`;

describe('the access log', () => {
  it('writes every line, in order, when the process exits with no other log line', () => {
    // 100 lines: some blocks are handed over during the run, the rest only at the exit.
    const { lines, status } = runLogger(`${accessLines(0, 100)}\nprocess.exit(0);`);
    expect(status).to.equal(0);
    expect(lines.map((line) => line.requestId)).to.deep.equal(Array.from({ length: 100 }, (_, i) => `r${i}`));
  });

  it('writes every line when the thread pool is busy at the exit', function () {
    this.timeout(20_000);
    // Node's four pool threads held by key derivations: an asynchronous write handed to the pool
    // would still be waiting when the process exits, and its block would be lost.
    const busyPool = `const { pbkdf2 } = await import('node:crypto'); for (let i = 0; i < 4; i++) pbkdf2('p', 's', 300_000, 32, 'sha512', () => {});`;
    const { lines, status } = runLogger(`${busyPool}\n${accessLines(0, 300)}\nprocess.exit(0);`);
    expect(status).to.equal(0);
    expect(lines.map((line) => line.requestId)).to.deep.equal(Array.from({ length: 300 }, (_, i) => `r${i}`));
  });

  it('keeps a pino line after the access lines written before it', () => {
    const { lines } = runLogger(`${accessLines(0, 3)}\nlogger.warn('between');\n${accessLines(3, 5)}\nprocess.exit(0);`);
    expect(lines.map((line) => line.requestId ?? line.msg)).to.deep.equal(['r0', 'r1', 'r2', 'between', 'r3', 'r4']);
  });

  it("keeps each line's fields to that line, with the process's role on every one", () => {
    const { lines } = runLogger(
      `const { setLogRole } = await import(${JSON.stringify(join(distRoot, 'lib', 'logger.js'))});\nsetLogRole('worker', { workerRoles: 'printing' });\nlogger.warn({ code: 'upstream_error', path: '/v1/x' }, 'first');\nlogger.warn('second');\n${accessLines(0, 1)}\nprocess.exit(0);`,
    );
    const [first, second, access] = lines as unknown as Record<string, unknown>[];
    expect(first).to.include({ msg: 'first', code: 'upstream_error', role: 'worker', workerRoles: 'printing' });
    expect(second).to.include({ msg: 'second', role: 'worker', workerRoles: 'printing' });
    expect(second).to.not.have.any.keys('code', 'path');
    expect(access).to.include({ msg: 'request', role: 'worker' });
  });

  it('writes any path as valid JSON: quotes, backslashes, control and non-ASCII characters', () => {
    const paths = ['/v1/plain', '/v1/"quoted"', '/v1/back\\slash', '/v1/tab\there', '/v1/\u007f', '/v1/caf\u00e9', '/v1/\u2028', '/v1/\ud800'];
    const script = `for (const path of ${JSON.stringify(paths)}) accessLog.write({ requestId: 'r', method: 'GET', path, status: 200, ms: 1, account: undefined });\nprocess.exit(0);`;
    const { lines } = runLogger(script);
    expect(lines.map((line) => (line as { path?: string }).path)).to.deep.equal(paths.map((path) => JSON.parse(JSON.stringify(path)) as string));
  });

  it('writes every line when the process ends on an uncaught error', () => {
    const { lines, status } = runLogger(`${accessLines(0, 30)}\nsetTimeout(() => { throw new Error('boom'); }, 10);`);
    expect(status).to.not.equal(0);
    expect(lines.filter((line) => line.msg === 'request')).to.have.length(30);
  });
});
