import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { toolsCacheDir } from '../../lib/config.js';
import { freePort, isPortFree } from '../../lib/net/ports.js';
import { waitForTemporal } from '../../temporal/connection.js';
import { resolveGoTool } from './go-tool.js';
import { awaitServerStart } from './child-process.js';
import { PORT_TAKEN_OUTPUT, PortTakenError } from './ports.js';
import { StartupError, firstLine } from './startup-error.js';

/**
 * A self-hosted Temporal as production runs one: the real server (frontend, history, matching and
 * worker services) on PostgreSQL for its persistence and its visibility, its schema set up by
 * Temporal's own SQL tool. Both built from Go modules, as the CLI is (the dev server is the same
 * server on SQLite in one process, tuned for a laptop). The version is the one the CLI embeds
 * (scripts/local/temporal-cli.ts), so that the tests compare the same server on two stores.
 */
export const TEMPORAL_SERVER_VERSION = '1.29.1';
/** Temporal's SQL schema, embedded in its SQL tool. */
const SCHEMAS = { persistence: 'postgresql/v12/temporal', visibility: 'postgresql/v12/visibility' } as const;

export function temporalClusterCacheDir(): string {
  return join(toolsCacheDir(), `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}

export interface TemporalClusterTools {
  server: string;
  sqlTool: string;
}

/** The server and its SQL tool: the version-keyed cache, else built into it with Go. */
export async function resolveTemporalClusterTools(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<TemporalClusterTools> {
  const common = {
    component: 'Temporal server',
    // go install names them after their folders: `server` and `sql`, names too common to take from PATH.
    onPath: false,
    cacheDir: temporalClusterCacheDir(),
    withoutGo: 'Install Go, or set TEMPORAL_SERVER_PATH and TEMPORAL_SQL_TOOL_PATH to the binaries of Temporal server ' + TEMPORAL_SERVER_VERSION,
    whenBuildFails: 'Check that the Go module proxy is reachable (the output above says why), or set TEMPORAL_SERVER_PATH and TEMPORAL_SQL_TOOL_PATH',
  };
  const server = await resolveGoTool(
    {
      ...common,
      binary: 'server',
      module: `go.temporal.io/server/cmd/server@v${TEMPORAL_SERVER_VERSION}`,
      pathVariable: 'TEMPORAL_SERVER_PATH',
      pathValue: process.env.TEMPORAL_SERVER_PATH,
    },
    log,
  );
  const sqlTool = await resolveGoTool(
    {
      ...common,
      binary: 'sql',
      module: `go.temporal.io/server/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION}`,
      pathVariable: 'TEMPORAL_SQL_TOOL_PATH',
      pathValue: process.env.TEMPORAL_SQL_TOOL_PATH,
    },
    log,
  );
  return { server, sqlTool };
}

/** A PostgreSQL role allowed to create databases, and the two databases the cluster gets. */
export interface ClusterPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  persistenceDatabase: string;
  visibilityDatabase: string;
}

function sqlTool(tools: TemporalClusterTools, pg: ClusterPostgres, database: string, args: string[]): void {
  const connection = [
    '--plugin',
    'postgres12',
    '--endpoint',
    pg.host,
    '--port',
    String(pg.port),
    '--user',
    pg.user,
    '--password',
    pg.password,
    '--database',
    database,
  ];
  const run = spawnSync(tools.sqlTool, [...connection, ...args], { encoding: 'utf8' });
  if (run.status !== 0)
    throw new StartupError(
      'Temporal server',
      `temporal-sql-tool ${args[0]} on ${database} failed: ${firstLine(run.stderr || run.stdout || String(run.error))}`,
      'See its output above',
    );
}

/**
 * What an operator runs once per cluster (docs/deploy.md): each database created, its schema set up
 * at version 0 and brought to the server's version by the versioned scripts.
 */
export function setUpClusterSchema(tools: TemporalClusterTools, pg: ClusterPostgres): void {
  for (const [database, schema] of [
    [pg.persistenceDatabase, SCHEMAS.persistence],
    [pg.visibilityDatabase, SCHEMAS.visibility],
  ] as const) {
    sqlTool(tools, pg, database, ['create-database']);
    sqlTool(tools, pg, database, ['setup-schema', '--version', '0.0']);
    sqlTool(tools, pg, database, ['update-schema', '--schema-name', schema]);
  }
}

export interface TemporalCluster {
  /** The frontend, host:port. */
  address: string;
  stop(): Promise<void>;
}

const STARTUP_MS = 90_000;
const SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;

/** The server's configuration (JSON is YAML): every service on the loopback, on the ports given. */
function clusterConfig(pg: ClusterPostgres, ports: Record<(typeof SERVICES)[number], { grpc: number; membership: number }> & { http: number }): unknown {
  const store = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${pg.host}:${pg.port}`,
      connectProtocol: 'tcp',
      user: pg.user,
      password: pg.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const frontend = `127.0.0.1:${ports.frontend.grpc}`;
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'default',
      visibilityStore: 'visibility',
      numHistoryShards: 4,
      datastores: { default: store(pg.persistenceDatabase, 20), visibility: store(pg.visibilityDatabase, 10) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: Object.fromEntries(
      SERVICES.map((service) => [
        service,
        {
          rpc: {
            grpcPort: ports[service].grpc,
            membershipPort: ports[service].membership,
            bindOnLocalHost: true,
            ...(service === 'frontend' ? { httpPort: ports.http } : {}),
          },
        },
      ]),
    ),
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: frontend } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
  };
}

/**
 * A free port for a service's membership: the cluster_membership table keeps it as a SMALLINT, so
 * it must be below 32768 (the kernel's ephemeral ports, which freePort gives, are above it).
 */
async function freeMembershipPort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isPortFree(port)) return port;
  }
  throw new StartupError('Temporal server', 'no free port between 20000 and 32000 for its membership', 'Free some of these ports');
}

/**
 * Starts the server with every service in one process (`start` runs them all; a deployment runs
 * each in its own pods, on the same stores), its schema set up first. Its ports taken meanwhile:
 * PortTakenError (retryWhilePortTaken tries others).
 */
export async function startTemporalCluster(tools: TemporalClusterTools, pg: ClusterPostgres, dir: string): Promise<TemporalCluster> {
  const pair = async () => ({ grpc: await freePort(), membership: await freeMembershipPort() });
  const ports = { frontend: await pair(), history: await pair(), matching: await pair(), worker: await pair(), http: await freePort() };
  const configDir = join(dir, 'config');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(join(configDir, 'cluster.yaml'), JSON.stringify(clusterConfig(pg, ports), null, 2));
  const logFile = join(dir, 'temporal-server.log');
  const log = createWriteStream(logFile, { flags: 'a' });
  // No authorizer: the frontend is reached on the loopback only (a deployment puts mTLS in front).
  const child = spawn(tools.server, ['--root', dir, '--config', 'config', '--env', 'cluster', '--allow-no-auth', 'start'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  let recent = '';
  let portTaken = false;
  const watch = (chunk: Buffer): void => {
    recent = (recent + chunk.toString()).slice(-4000);
    if (PORT_TAKEN_OUTPUT.test(recent)) portTaken = true;
  };
  child.stdout!.on('data', watch);
  child.stderr!.on('data', watch);
  const address = `127.0.0.1:${ports.frontend.grpc}`;
  const early = Promise.race([
    once(child, 'close').then(([code]) => {
      if (portTaken) throw new PortTakenError('Temporal server', 'a service could not listen (a port was taken)', `See ${logFile}`);
      throw new StartupError('Temporal server', `exited at start (code ${code}): ${firstLine(recent.trim().split('\n').at(-1) ?? '')}`, `See ${logFile}`);
    }),
    once(child, 'error').then(([error]) => {
      throw new StartupError('Temporal server', `${tools.server} could not run (${firstLine(error)})`, 'Set TEMPORAL_SERVER_PATH to a working binary');
    }),
  ]);
  const server = await awaitServerStart(child, log, waitForTemporal(address, STARTUP_MS), early);
  return {
    address,
    stop: () => server.stop('SIGTERM', 20_000),
  };
}
