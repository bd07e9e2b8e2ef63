import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { spawnApiProcess } from '../support/api.js';
import { makePrivateCa, type PrivateCa } from '../support/private-ca.js';
import { spawnNode } from '../support/processes.js';
import { postgresConnection, type DatabaseRole } from '../../db/connection.js';
import { freePort } from '../../lib/net/ports.js';
import { distRoot } from '../../lib/paths.js';
import { startLocalPostgres, type LocalPostgres } from '../../scripts/local/postgres.js';

/**
 * A managed PostgreSQL as the providers run it: TLS with a certificate from their own CA, which the
 * operator mounts and names (sslrootcert / PGSSLROOTCERT). Here a real PostgreSQL serves a
 * certificate for `localhost` signed by a CA made for the test; a second CA signs nothing of it.
 * Reached as `localhost`, the name matches; reached as 127.0.0.1 (as a private IP), it does not.
 */
/** What Node says of a certificate that no CA it trusts has signed. */
const UNTRUSTED = /unable to verify the first certificate|self[- ]signed certificate in certificate chain|unable to get local issuer/;

describe('PostgreSQL over TLS with a provider CA (db/connection.ts)', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-tls-'));
  let provider: PrivateCa;
  let stranger: PrivateCa;
  let postgres: LocalPostgres;
  let byName: string;
  let byAddress: string;

  before(async () => {
    // The server runs under its own account when the suite is root: it must reach its folder.
    chmodSync(dir, 0o755);
    provider = makePrivateCa(join(dir, 'provider'), 'provider', ['localhost']);
    stranger = makePrivateCa(join(dir, 'stranger'), 'stranger', ['localhost']);
    postgres = await startLocalPostgres(join(dir, 'postgres'), await freePort(), false, { tls: provider });
    byAddress = postgres.url;
    byName = postgres.url.replace('@127.0.0.1:', '@localhost:');
  });

  after(async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const withParameters = (url: string, parameters: Record<string, string>): string => `${url}?${new URLSearchParams(parameters).toString()}`;

  /** Whether the session is encrypted, and the name it gave, as the server sees them. */
  async function session(url: string, env: NodeJS.ProcessEnv = {}, role: DatabaseRole = 'api'): Promise<{ ssl: boolean; application: string }> {
    const client = new pg.Client(postgresConnection(url, role, {}, env));
    await client.connect();
    try {
      const { rows } = await client.query<{ ssl: boolean; application: string }>(
        "SELECT ssl, current_setting('application_name') AS application FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
      );
      return rows[0]!;
    } finally {
      await client.end();
    }
  }

  /** Why the connection was refused. */
  async function refusal(url: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
    let client: pg.Client | undefined;
    try {
      client = new pg.Client(postgresConnection(url, 'api', {}, env));
      await client.connect();
    } catch (error) {
      return (error as Error).message;
    } finally {
      await client?.end().catch(() => undefined);
    }
    throw new Error(`connected to ${url}`);
  }

  describe('the modes, as libpq reads them', () => {
    it('verify-full with the provider CA: encrypted, and the certificate names the host', async () => {
      const url = withParameters(byName, { sslmode: 'verify-full', sslrootcert: provider.caFile });
      expect(await session(url)).to.deep.equal({ ssl: true, application: 'svc-postal-api' });
    });

    it('verify-full refuses a certificate that does not name the host connected to', async () => {
      const url = withParameters(byAddress, { sslmode: 'verify-full', sslrootcert: provider.caFile });
      expect(await refusal(url)).to.match(/IP: 127\.0\.0\.1 is not in the cert's list|does not match certificate/);
    });

    it("verify-full refuses a server signed by a CA it was not given (Node's CAs do not know the provider's)", async () => {
      expect(await refusal(withParameters(byName, { sslmode: 'verify-full' }))).to.match(UNTRUSTED);
      expect(await refusal(withParameters(byName, { sslmode: 'verify-full', sslrootcert: stranger.caFile }))).to.match(UNTRUSTED);
    });

    it('verify-ca checks the chain and not the name: a database reached by its private address connects', async () => {
      expect(await session(withParameters(byAddress, { sslmode: 'verify-ca', sslrootcert: provider.caFile }))).to.include({ ssl: true });
      expect(await refusal(withParameters(byAddress, { sslmode: 'verify-ca', sslrootcert: stranger.caFile }))).to.match(UNTRUSTED);
    });

    it('verify-ca without a CA file is refused before connecting: any public certificate would pass', () => {
      expect(() => postgresConnection(withParameters(byAddress, { sslmode: 'verify-ca' }), 'api')).to.throw(/verify-ca needs the CA file/);
    });

    it('require encrypts without checking, unless a CA file is given: then it checks the chain', async () => {
      expect(await session(withParameters(byAddress, { sslmode: 'require' }))).to.include({ ssl: true });
      expect(await session(withParameters(byAddress, { sslmode: 'require', sslrootcert: provider.caFile }))).to.include({ ssl: true });
      expect(await refusal(withParameters(byAddress, { sslmode: 'require', sslrootcert: stranger.caFile }))).to.match(UNTRUSTED);
    });

    it("PGSSLMODE and PGSSLROOTCERT apply when the URL says nothing; the URL's own parameters win", async () => {
      const env = { PGSSLMODE: 'verify-full', PGSSLROOTCERT: provider.caFile };
      expect(await session(byName, env)).to.include({ ssl: true });
      expect(await refusal(byAddress, env)).to.match(/IP: 127\.0\.0\.1 is not in the cert's list|does not match certificate/);
      expect(await session(withParameters(byAddress, { sslmode: 'disable' }), env)).to.include({ ssl: false });
    });

    it('no mode at all is plain text, as before; PGAPPNAME renames the session', async () => {
      expect(await session(byAddress, {}, 'worker')).to.deep.equal({ ssl: false, application: 'svc-postal-worker' });
      expect(await session(byAddress, { PGAPPNAME: 'reporting' })).to.deep.equal({ ssl: false, application: 'reporting' });
    });

    it('prefer and allow are refused with the modes that work; a missing CA file is named', () => {
      for (const mode of ['prefer', 'allow'])
        expect(() => postgresConnection(withParameters(byName, { sslmode: mode }), 'api')).to.throw(/use disable, require, verify-ca, verify-full/);
      expect(() => postgresConnection(withParameters(byName, { sslmode: 'verify-full', sslrootcert: '/nowhere/ca.pem' }), 'api')).to.throw(
        /sslrootcert \/ PGSSLROOTCERT: cannot read \/nowhere\/ca\.pem \(ENOENT\)/,
      );
    });
  });

  describe('the processes of a deployment', () => {
    const migrate = (env: Record<string, string>): ReturnType<typeof spawnSync> =>
      spawnSync(process.execPath, [join(distRoot, 'scripts', 'migrate.js')], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });

    it('the migrations refuse a server they cannot verify, then run over TLS with the CA', () => {
      const refused = migrate({ DATABASE_URL: byName, PGSSLMODE: 'verify-full' });
      expect(refused.status, String(refused.stdout)).to.not.equal(0);
      expect(String(refused.stderr)).to.match(UNTRUSTED);
      const applied = migrate({ DATABASE_URL: withParameters(byName, { sslmode: 'verify-full', sslrootcert: provider.caFile }) });
      expect(applied.status, String(applied.stderr)).to.equal(0);
      expect((JSON.parse(String(applied.stdout)) as { applied: string[] }).applied.length).to.be.greaterThan(10);
    });

    it('the API serves with its pool and listeners encrypted, each connection named by its role', async () => {
      const api = await spawnApiProcess({
        DATABASE_URL: byName,
        PGSSLMODE: 'verify-full',
        PGSSLROOTCERT: provider.caFile,
        TEMPORAL_TASK_QUEUE: 'postgres-tls',
      });
      try {
        expect((await fetch(`${api.url}/ready`)).status).to.equal(200);
        const admin = new pg.Client({ connectionString: byAddress });
        await admin.connect();
        try {
          const { rows } = await admin.query<{ application_name: string; ssl: boolean }>(
            "SELECT DISTINCT a.application_name, s.ssl FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) WHERE a.application_name LIKE 'svc-postal-%' ORDER BY 1",
          );
          expect(rows).to.deep.equal([
            { application_name: 'svc-postal-api', ssl: true },
            { application_name: 'svc-postal-listener', ssl: true },
          ]);
        } finally {
          await admin.end();
        }
      } finally {
        await api.stop();
      }
    });

    it('the API and the worker refuse to start when the certificate does not name the host', async () => {
      const env = { DATABASE_URL: withParameters(byAddress, { sslmode: 'verify-full', sslrootcert: provider.caFile }), TEMPORAL_TASK_QUEUE: 'postgres-tls' };
      const error = await spawnApiProcess(env).then(
        async (api) => {
          await api.stop();
          return 'started';
        },
        (failure: Error) => failure.message,
      );
      expect(error).to.match(/API process exited[\s\S]*(IP: 127\.0\.0\.1 is not in the cert's list|does not match certificate)/);
      const worker = spawnNode('worker', env, 'pipe');
      let output = '';
      worker.stdout!.on('data', (chunk) => (output += chunk));
      worker.stderr!.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => worker.once('exit', resolve));
      expect(code, output).to.not.equal(0);
      expect(output).to.match(/IP: 127\.0\.0\.1 is not in the cert's list|does not match certificate/);
    });
  });
});
