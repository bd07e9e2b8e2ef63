import { Connection, Client } from '@temporalio/client';
import { Worker, NativeConnection, Runtime, DefaultLogger } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
Runtime.install({ logger: new DefaultLogger('ERROR') });
const nc = await NativeConnection.connect({ address: '127.0.0.1:27233' });
const worker = await Worker.create({ connection: nc, taskQueue: 'probe', workflowsPath: '/work/main/probe-wf.mjs', activities: { ping: async () => 'pong' } });
const running = worker.run();
const connection = await Connection.connect({ address: '127.0.0.1:27233' });
const client = new Client({ connection });
const times = [];
for (let i = 0; i < 25; i++) {
  const t = performance.now();
  await client.workflow.execute('pingWf', { taskQueue: 'probe', workflowId: `p-${randomUUID()}` });
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(times.map((x) => x.toFixed(0)).join(' '));
worker.shutdown(); await running; await connection.close(); await nc.close();
