import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import proto from '@temporalio/proto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../lib/config.js';
import { connectTemporal } from '../temporal/connection.js';
import { replayHistories } from '../worker/replay.js';
import { toolTemporalAddress } from './local/database.js';

/**
 * `npm run replay`: before rolling out a new build, replay the histories of the mailings, webhook
 * deliveries and top-ups running on a Temporal server (TEMPORAL_ADDRESS, else the one `npm start` runs)
 * against this build's workflow code. Prints {"replayed", "failed":[{workflowId, error}]}; exit 1
 * when any fails (do not deploy: the change is not compatible with workflows in flight). `--save
 * DIR` also writes each history there (binary protobuf), to add to test/fixtures/histories/;
 * `--query` picks other executions (a visibility query, e.g. finished deliveries to record).
 */
const RUNNING =
  "(WorkflowType = 'mailing' OR WorkflowType = 'webhookDelivery' OR WorkflowType = 'topUp' OR WorkflowType = 'mailingBatch') AND ExecutionStatus = 'Running'";

/**
 * The report is the only thing on standard output (tools parse it): the SDK's own lines (warnings
 * while replaying, the native core's) go to standard error.
 */
function logToStandardError(): void {
  const logger = new DefaultLogger('WARN', ({ level, message, meta }) => {
    let details = '';
    try {
      details = meta ? ` ${JSON.stringify(meta, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))}` : '';
    } catch {
      // A value that cannot be printed: the message alone.
    }
    process.stderr.write(`${level} ${message}${details}\n`);
  });
  Runtime.install({ logger, telemetryOptions: { logging: { forward: {}, filter: { core: 'WARN', other: 'WARN' } } } });
}

async function main(): Promise<number> {
  logToStandardError();
  const { values } = parseArgs({ options: { save: { type: 'string' }, limit: { type: 'string' }, query: { type: 'string' } } });
  const config = loadConfig();
  const temporal = await connectTemporal(toolTemporalAddress(config), config.temporalNamespace, config);
  const limit = Number(values.limit ?? 1000);
  const saveDir = values.save === undefined ? undefined : resolve(values.save);
  if (saveDir) mkdirSync(saveDir, { recursive: true });
  try {
    const histories = [];
    for await (const execution of temporal.client.workflow.list({ query: values.query ?? RUNNING })) {
      if (histories.length >= limit) break;
      const history = await temporal.client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
      if (saveDir) writeFileSync(join(saveDir, `${execution.workflowId}.binpb`), proto.temporal.api.history.v1.History.encode(history).finish());
      histories.push({ workflowId: execution.workflowId, history });
    }
    const outcomes = await replayHistories(histories);
    const failed = outcomes.filter((o) => o.error).map((o) => ({ workflowId: o.workflowId, error: o.error!.message }));
    console.log(JSON.stringify({ replayed: outcomes.length, failed }));
    return failed.length ? 1 : 0;
  } finally {
    await temporal.connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.log(JSON.stringify({ error: { code: 'replay_failed', message: (error as Error).message } }));
    process.exit(2);
  },
);
