/**
 * The domain's short workflows run to their result on a Temporal client, one runner per group
 * (each defined by its module's port.ts): started by function on the interactive task queue, a
 * failure told apart from an unreachable Temporal by type.
 */
import { WorkflowFailedError, type Workflow } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { AiPort, AiWorkflows } from '../domain/ai/port.js';
import type { LetterPort, LetterWorkflows } from '../domain/letters/port.js';
import type { LookupPort, LookupWorkflows } from '../domain/lookups/port.js';
import type { SearchPort, SearchWorkflows } from '../domain/search/port.js';
import type { SenderPort, SenderWorkflows } from '../domain/developers/port.js';
import type { RunOptions, ShortWorkflowRunner, ShortWorkflows } from '../domain/short-workflows.js';
import * as workflows from '../workflows/index.js';
import { interactiveQueue } from '../workflows/contract.js';
import { type TemporalCalls, unreachable } from './calls.js';

/** Each group of short workflows the domain runs, checked against the worker's own at compile time. */
const lookupWorkflows: LookupWorkflows = workflows;
const aiWorkflows: AiWorkflows = workflows;
const searchWorkflows: SearchWorkflows = workflows;
const letterWorkflows: LetterWorkflows = workflows;
const senderWorkflows: SenderWorkflows = workflows;

/** Runs the short workflows of `group` (the worker's own functions, checked against the domain's type). */
export function shortWorkflowRunner<W extends ShortWorkflows<W>>({ client, config }: TemporalCalls, group: W): ShortWorkflowRunner<W> {
  return {
    async run<N extends keyof W & string>(name: N, args: Parameters<W[N]>, options: RunOptions): Promise<Awaited<ReturnType<W[N]>>> {
      try {
        // Started by function. Callers are checked against the workflow's own signature (the
        // port's type); TypeScript cannot follow a generic index into the options here.
        return (await client.workflow.execute(group[name] as unknown as Workflow, {
          taskQueue: interactiveQueue(config.taskQueue),
          workflowId: `${options.idPrefix}-${randomUUID()}`,
          workflowExecutionTimeout: options.timeout ?? '60s',
          args: args as never,
        })) as Awaited<ReturnType<W[N]>>;
      } catch (error) {
        if (error instanceof WorkflowFailedError)
          throw options.failure?.() ?? new Error(`The ${name} workflow failed: ${error.cause?.message ?? error.message}`);
        throw unreachable();
      }
    },
  };
}

export const temporalLookups = (calls: TemporalCalls): LookupPort => shortWorkflowRunner(calls, lookupWorkflows);
export const temporalAi = (calls: TemporalCalls): AiPort => shortWorkflowRunner(calls, aiWorkflows);
export const temporalSearch = (calls: TemporalCalls): SearchPort => shortWorkflowRunner(calls, searchWorkflows);
export const temporalLetters = (calls: TemporalCalls): LetterPort => shortWorkflowRunner(calls, letterWorkflows);
export const temporalSenders = (calls: TemporalCalls): SenderPort => shortWorkflowRunner(calls, senderWorkflows);
