/**
 * Replays workflow histories against this build's workflow code: a change that would break a
 * mailing already in flight (a non-determinism error) shows here before it is deployed. Used by
 * the replay tests (recorded histories) and by `npm run replay` (the running mailings of a server).
 */
import { Worker } from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import { fileURLToPath } from 'node:url';

const workflowsPath = fileURLToPath(new URL('../workflows/index.js', import.meta.url));

export interface ReplayOutcome {
  workflowId: string;
  /** The replay's failure (e.g. a DeterminismViolationError); undefined when it replayed cleanly. */
  error?: Error;
}

export async function replayHistories(
  histories:
    | AsyncIterable<{ workflowId: string; history: temporal.api.history.v1.IHistory }>
    | Iterable<{ workflowId: string; history: temporal.api.history.v1.IHistory }>,
): Promise<ReplayOutcome[]> {
  const outcomes: ReplayOutcome[] = [];
  for await (const result of Worker.runReplayHistories({ workflowsPath }, histories)) outcomes.push({ workflowId: result.workflowId, error: result.error });
  return outcomes;
}
