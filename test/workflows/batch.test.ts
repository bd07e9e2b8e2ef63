import { expect } from 'chai';
import type { WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { BatchWorkflowInput } from '../../domain/batches/workflow-input.js';
import type { MailingStart } from '../../domain/mailings/workflow-input.js';
import { batchWorkflowId, mailingWorkflowId } from '../../workflows/contract.js';
import { mailingBatch } from '../../workflows/batch.js';
import { MailingDouble, mailingInput, WorkflowTestBench } from './support.js';

const HOUR = 3600_000;

/**
 * The batch workflow alone, on the time-skipping server with mocked activities: it starts its
 * mailings chunk by chunk (each mailing's own workflow id, once), continues as new every few chunks
 * and every few counts, and completes the batch once when every mailing is final.
 */
describe('the batch workflow (mocked activities, time-skipping server)', function () {
  this.timeout(60_000);
  const bench = new WorkflowTestBench();
  before(async function () {
    this.timeout(180_000);
    await bench.start();
  });
  after(() => bench.stop());

  /** The runs of a workflow, first to last: each run's history events. */
  async function runs(handle: WorkflowHandle, firstRunId: string): Promise<temporal.api.history.v1.IHistoryEvent[][]> {
    const found: temporal.api.history.v1.IHistoryEvent[][] = [];
    for (let runId: string | undefined = firstRunId; runId;) {
      const events: temporal.api.history.v1.IHistoryEvent[] = (await bench.env.client.workflow.getHandle(handle.workflowId, runId).fetchHistory()).events!;
      found.push(events);
      runId = events.at(-1)!.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    }
    return found;
  }

  it('starts 10 mailings by chunks of 3, two chunks a run, then counts until all are final, continued as new throughout', async () => {
    const doubles = Array.from({ length: 10 }, () => new MailingDouble(mailingInput('simple', true)));
    const sorted = doubles.map((d) => d.input).sort((a, b) => (a.shipmentId < b.shipmentId ? -1 : 1));
    const asked: (string | null)[] = [];
    let counts = 0;
    let completed = 0;
    bench.batch = {
      async batchMailingStarts(_batchId: string, after: string | null, limit: number): Promise<MailingStart[]> {
        asked.push(after);
        return sorted
          .filter((input) => after === null || input.shipmentId > after)
          .slice(0, limit)
          .map((input) => ({ input, reference: 'ref' }));
      },
      async batchIsFinal() {
        counts += 1;
        return counts >= 5;
      },
      async completeBatch() {
        completed += 1;
        return [];
      },
    };
    const batchId = crypto.randomUUID();
    const input: BatchWorkflowInput = {
      batchId,
      accountId: crypto.randomUUID(),
      test: true,
      pollMs: HOUR,
      webhookRetryDelaysMs: [1000],
      chunkSize: 3,
      chunksPerRun: 2,
      countsPerRun: 2,
    };
    await bench.runMany(doubles, async (taskQueue) => {
      const handle = await bench.env.client.workflow.start(mailingBatch, { taskQueue, workflowId: batchWorkflowId(batchId), args: [input] });
      // The hour between counts is skipped.
      await bench.env.skipping(() => handle.result());
      // Chunks read after the last one started: 3 + 3 (run 1), 3 + 1 (run 2, the last chunk is short).
      expect(asked).to.deep.equal([null, sorted[2]!.shipmentId, sorted[5]!.shipmentId, sorted[8]!.shipmentId]);
      const history = await runs(handle, handle.firstExecutionRunId);
      const childStarts = history.map((events) =>
        events
          .filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)
          .map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId!),
      );
      // Run 1 and 2 start the mailings, runs 3, 4 and 5 count (2, 2, then the 5th count is final).
      expect(childStarts.map((ids) => ids.length)).to.deep.equal([6, 4, 0, 0, 0]);
      expect(childStarts.flat()).to.deep.equal(sorted.map((i) => mailingWorkflowId(i.shipmentId)));
      expect(history.slice(0, -1).every((events) => events.at(-1)!.workflowExecutionContinuedAsNewEventAttributes)).to.equal(true);
      expect(counts).to.equal(5);
      expect(completed).to.equal(1);
      // Each mailing ran under its own workflow id, as the batch's child, past the batch's runs (ABANDON).
      for (const double of doubles) {
        const mailing = await bench.env.client.workflow.getHandle(mailingWorkflowId(double.input.shipmentId)).describe();
        expect(mailing.parentExecution?.workflowId).to.equal(batchWorkflowId(batchId));
        expect(mailing.status.name).to.be.oneOf(['RUNNING', 'COMPLETED']);
        expect(double.calls).to.include('announceCommittedShipment');
      }
      // Waits are timers of pollMs, not a tight poll: one per count that found the batch unfinished.
      const timers = history.flat().filter((e) => e.timerStartedEventAttributes);
      expect(timers).to.have.length(4);
    });
  });

  it('a mailing already started (by the reconciler, or before a crash) is taken as started', async () => {
    const double = new MailingDouble(mailingInput('simple', true));
    bench.batch = {
      batchMailingStarts: async (_b: string, after: string | null) => (after === null ? [{ input: double.input, reference: '' }] : []),
      batchIsFinal: async () => true,
      completeBatch: async () => [],
    };
    await bench.runMany([double], async (taskQueue) => {
      await bench.env.client.workflow.start('mailing', { taskQueue, workflowId: mailingWorkflowId(double.input.shipmentId), args: [double.input] });
      const batchId = crypto.randomUUID();
      const input: BatchWorkflowInput = { batchId, accountId: double.input.accountId, test: true, pollMs: HOUR, webhookRetryDelaysMs: [1000] };
      await bench.env.client.workflow.execute(mailingBatch, { taskQueue, workflowId: batchWorkflowId(batchId), args: [input] });
    });
  });
});
