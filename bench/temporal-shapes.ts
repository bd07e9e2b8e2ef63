import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { ACCOUNT_ID, MAILING_MODE, MAILING_STATUS, MAILING_TEST } from '../workflows/contract.js';
import type { BareStep } from './bare-workflow.js';
import type { BenchDeps } from './deps.js';
import { freshNamespace } from './namespaces.js';
import { listProcesses, processCpuMs } from './process-cpu.js';
import type { Report } from './report.js';
import { ScenarioFailed } from './support.js';

/** Workflows per shape, and how many run at once. */
const WORKFLOWS = 200;
const AT_ONCE = 25;

/** What one workflow asks of Temporal: the steps of bench/bare-workflow.ts, and whether it starts with a mailing's search attributes. */
const SHAPES: { name: string; steps: BareStep[]; searchAttributes?: true }[] = [
  { name: 'an empty workflow', steps: [] },
  { name: 'an empty workflow started with a mailing’s four search attributes', steps: [], searchAttributes: true },
  { name: 'one activity', steps: ['activity'] },
  { name: 'three activities', steps: ['activity', 'activity', 'activity'] },
  { name: 'five local activities', steps: ['local', 'local', 'local', 'local', 'local'] },
  { name: 'three search-attribute upserts', steps: ['upsert', 'upsert', 'upsert'] },
];

/**
 * `npm run bench -- temporal-shapes` (not in a full run): the CPU Temporal's dev server spends on
 * one workflow of each shape, each shape in a fresh namespace, to read what a mailing's history
 * costs the server part by part (issue 57, part 3: docs/performance.md).
 */
export async function benchTemporalShapes(deps: BenchDeps, report: Report): Promise<void> {
  const server = listProcesses().find((p) => p.ppid === process.pid && p.comm.startsWith('temporal'));
  if (!server) throw new ScenarioFailed('the Temporal dev server is not a child of the bench: its CPU cannot be read');
  const workflowBundle = await bundleWorkflowCode({
    workflowsPath: new URL('./bare-workflow.js', import.meta.url).pathname,
    logger: new DefaultLogger('WARN'),
  });
  const connection = await NativeConnection.connect({ address: deps.temporalAddress });
  try {
    for (const shape of SHAPES) {
      const { namespace, client } = await freshNamespace(deps, 'shape');
      const taskQueue = `bench-shape-${randomUUID()}`;
      const worker = await Worker.create({ connection, namespace, taskQueue, workflowBundle, activities: { noop: async () => undefined } });
      const running = worker.run();
      const run = () =>
        client.workflow.execute('bareActivities', {
          taskQueue,
          workflowId: `bench-shape-${randomUUID()}`,
          args: [shape.steps],
          ...(shape.searchAttributes && {
            typedSearchAttributes: [
              { key: ACCOUNT_ID, value: randomUUID() },
              { key: MAILING_MODE, value: 'ar' },
              { key: MAILING_STATUS, value: 'paid' },
              { key: MAILING_TEST, value: false },
            ],
          }),
        });
      try {
        // Warm: the worker's isolates, the namespace's caches.
        await Promise.all(Array.from({ length: AT_ONCE }, run));
        const before = processCpuMs(server.pid)!;
        let left = WORKFLOWS;
        await Promise.all(
          Array.from({ length: AT_ONCE }, async () => {
            while (left-- > 0) await run();
          }),
        );
        const perWorkflow = (processCpuMs(server.pid)! - before) / WORKFLOWS;
        console.log(`Temporal's dev server, CPU per workflow: ${shape.name}: ${perWorkflow.toFixed(1)} ms`);
        report.add({
          part: 'temporal-shapes',
          name: `Temporal's dev server, CPU per workflow: ${shape.name}`,
          value: Math.round(perWorkflow * 10) / 10,
          unit: 'ms',
        });
      } finally {
        worker.shutdown();
        // The namespace's client shares the bench's connection: nothing of its own to close.
        await running;
      }
    }
  } finally {
    await connection.close();
  }
}
