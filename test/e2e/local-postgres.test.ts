import { expect } from 'chai';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { dataLocation, reachableBy, startLocalPostgres, SYSTEM_RUNTIME_DIR } from '../../scripts/local/postgres.js';
import { freePort } from '../../lib/net/ports.js';

describe('local PostgreSQL', function () {
  this.timeout(60_000);
  let closed: string;
  before(() => {
    closed = mkdtempSync(join(tmpdir(), 'closed-home-'));
    chmodSync(closed, 0o700);
  });
  after(() => rmSync(closed, { recursive: true, force: true }));

  it('knows which folders another user can reach', () => {
    const stranger = { uid: 54321, gid: 54321 };
    expect(reachableBy(join(closed, 'app', '.data'), stranger)).to.equal(false);
    expect(reachableBy(tmpdir(), stranger)).to.equal(true);
    expect(dataLocation(join(tmpdir(), 'some-project', 'postgres'), stranger)).to.equal(join(tmpdir(), 'some-project', 'postgres'));
  });

  it('as root, runs a cluster asked for inside a 0700 folder from a folder the postgres user can reach', async function () {
    if (userInfo().uid !== 0) this.skip();
    const server = await startLocalPostgres(join(closed, 'app', '.data', 'postgres'), await freePort(), false);
    try {
      expect(server.dataDir.startsWith(SYSTEM_RUNTIME_DIR + '/')).to.equal(true);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      expect((await client.query('SELECT current_user AS who')).rows[0].who).to.equal('postgres');
      await client.end();
    } finally {
      await server.stop();
    }
    expect(existsSync(server.dataDir), 'a test cluster is removed when stopped').to.equal(false);
    expect(existsSync(dirname(server.dataDir)), 'with the folder it was moved to').to.equal(false);
  });
});
