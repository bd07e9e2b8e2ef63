import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NativeConnection } from '@temporalio/worker';
import { loadConfig, type Config } from '../../lib/config.js';
import { projectRoot } from '../../lib/paths.js';
import { connectTemporal, temporalConnectionOptions, type TemporalHandle } from '../../temporal/connection.js';
import { healthCheck } from '../../workflows/index.js';
import { spawnNode } from '../support/processes.js';
import { stack } from '../support/stack.js';
import { startTlsTerminator, TEMPORAL_PKI, type TlsTerminator } from '../support/tls-terminator.js';

/** Temporal behind TLS with client certificates (mTLS): the dev server has no TLS, a terminator adds it. */
describe('Temporal over TLS (mTLS)', function () {
  this.timeout(120_000);
  let terminator: TlsTerminator;
  let worker: ChildProcess | undefined;
  const taskQueue = `tls-${randomUUID()}`;
  const settings = () => ({
    TEMPORAL_ADDRESS: terminator.address,
    // The certificate is for temporal.test: the name checked is the override, not 127.0.0.1.
    TEMPORAL_TLS_SERVER_NAME: 'temporal.test',
    TEMPORAL_TLS_CA: TEMPORAL_PKI['ca.pem'],
    TEMPORAL_TLS_CERT: TEMPORAL_PKI['client.pem'],
    TEMPORAL_TLS_KEY: TEMPORAL_PKI['client-key.pem'],
    TEMPORAL_TASK_QUEUE: taskQueue,
  });
  const configWith = (env: Record<string, string | undefined>): Config => loadConfig({ ...process.env, ...env });
  const connections: TemporalHandle[] = [];
  const connect = async (config: Config): Promise<TemporalHandle> => {
    const handle = await connectTemporal(config.temporalAddress!, config.temporalNamespace, config);
    connections.push(handle);
    return handle;
  };

  before(async () => {
    terminator = await startTlsTerminator(stack().local.temporalAddress, { requireClientCert: true });
  });
  after(async () => {
    for (const { connection } of connections) await connection.close();
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await once(worker, 'exit');
    }
    await terminator.stop();
  });

  it('a worker process and a client, both over TLS with their client certificate, run a workflow', async () => {
    let output = '';
    // The worker's own start: it checks the search attributes (TEMPORAL_ADDRESS set: not registered) over TLS too.
    worker = spawnNode('worker', { ...settings(), WORKER_ROLES: 'mailings', LOG_LEVEL: 'info' }, 'pipe');
    worker.stdout!.on('data', (chunk) => (output += chunk));
    worker.stderr!.on('data', (chunk) => (output += chunk));
    const { client } = await connect(configWith(settings()));
    const result = await client.workflow.execute(healthCheck, { taskQueue, workflowId: `tls-health-${randomUUID()}`, workflowExecutionTimeout: '60s' });
    expect(result.workerAt).to.be.a('string');
    // The log is written in blocks, flushed every second: wait for the line.
    for (const deadline = Date.now() + 10_000; !output.includes('worker running') && Date.now() < deadline;) await sleep(100);
    expect(output).to.include('worker running');
    expect(terminator.accepted, 'connections went through the terminator').to.be.greaterThan(1);
  });

  it('a client without the client certificate is refused', async () => {
    const refusedBefore = terminator.refused;
    const config = configWith({ ...settings(), TEMPORAL_TLS_CERT: undefined, TEMPORAL_TLS_KEY: undefined });
    expect(config.temporalTls?.client).to.equal(undefined);
    const error = await connect(config).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error, 'connected without a client certificate').to.be.instanceOf(Error);
    // The worker's connection (the SDK's native one) is refused the same way.
    const native = await NativeConnection.connect(temporalConnectionOptions(config.temporalAddress!, config.temporalNamespace, config)).then(
      async (connection) => {
        await connection.close();
        return undefined;
      },
      (e: unknown) => e as Error,
    );
    expect(native, 'the worker connected without a client certificate').to.be.instanceOf(Error);
    expect(terminator.refused).to.be.greaterThan(refusedBefore);
  });

  it('a client certificate of another CA is refused, and so is a server the client has no CA for', async () => {
    const foreign = configWith(settings());
    // The webhook receivers' self-signed certificate: not issued by the test CA.
    const tls = join(projectRoot, 'test', 'fixtures', 'tls');
    foreign.temporalTls!.client = { cert: readFileSync(join(tls, 'cert.pem')), key: readFileSync(join(tls, 'key.pem')) };
    expect(
      await connect(foreign).then(
        () => 'connected',
        () => 'refused',
      ),
    ).to.equal('refused');
    const untrusting = configWith({ ...settings(), TEMPORAL_TLS_CA: undefined });
    expect(
      await connect(untrusting).then(
        () => 'connected',
        () => 'refused',
      ),
    ).to.equal('refused');
  });
});
