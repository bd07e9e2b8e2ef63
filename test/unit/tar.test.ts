import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readTar, tarEnd, tarEntry } from '../../lib/tar.js';

const run = promisify(execFile);

/** lib/tar.ts, the account export's archive writer, read back by GNU tar (an independent reader). */
describe('the ustar writer of the account export', () => {
  const files = [
    { path: 'manifest.json', bytes: Buffer.from('{"a":1}\n') },
    { path: 'empty.txt', bytes: Buffer.alloc(0) },
    { path: 'exactly-one-block.bin', bytes: Buffer.alloc(512, 7) },
    // Over 100 bytes: the directories go in the ustar prefix field.
    { path: `mailings/${'d'.repeat(90)}/${'f'.repeat(60)}.pdf`, bytes: Buffer.from('%PDF-1.7 fake bytes') },
  ];
  const archive = Buffer.concat([...files.flatMap((f) => [...tarEntry(f.path, f.bytes)]), tarEnd()]);

  it('is read back by its own reader, byte for byte', () => {
    expect(readTar(archive).map((f) => ({ path: f.path, bytes: Buffer.from(f.bytes) }))).to.deep.equal(files);
  });

  it('is read by GNU tar: the same names and contents', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tar-test-'));
    try {
      await writeFile(join(dir, 'a.tar'), archive);
      const { stdout } = await run('tar', ['-tf', join(dir, 'a.tar')]);
      expect(stdout.trim().split('\n')).to.deep.equal(files.map((f) => f.path));
      await run('tar', ['-xf', join(dir, 'a.tar'), '-C', dir]);
      for (const f of files) expect((await readFile(join(dir, f.path))).equals(f.bytes), f.path).to.equal(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
