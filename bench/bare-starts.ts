/**
 * The intake baseline, in a fresh process of its own (forked by bench/intake.ts): the mailing
 * workflow started exactly as the API starts it (same id scheme, input and search attributes,
 * temporal/mailings.ts), `CONCURRENCY` at a time, on a queue no worker polls. The parent
 * counts the starts through Temporal, as it counts the API's.
 * IPC: sends `warm` after a 1 s warm-up, runs `SECONDS` on `go`, then sends `{ started }`.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { loadConfig } from '../lib/config.js';
import { connectTemporal } from '../temporal/connection.js';
import { temporalWorkflows } from '../temporal/domain-deps.js';
import { mailingWorkflowInput } from '../domain/mailings/create.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const temporal = await connectTemporal(config.temporalAddress!, config.temporalNamespace);
  const workflows = temporalWorkflows(temporal.client, config);
  const concurrency = Number(process.env.CONCURRENCY);
  const startFor = async (seconds: number): Promise<number> => {
    const deadline = Date.now() + seconds * 1000;
    let started = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < deadline) {
          const input = mailingWorkflowInput(config, { shipmentId: randomUUID(), accountId: randomUUID(), mode: 'ar', test: true });
          await workflows.mailings.start(input, '');
          started += 1;
        }
      }),
    );
    return started;
  };
  process.send!({ warm: await startFor(1) });
  await once(process, 'message');
  process.send!({ started: await startFor(Number(process.env.SECONDS)) });
  await temporal.connection.close();
  process.disconnect();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
