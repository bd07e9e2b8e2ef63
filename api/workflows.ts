import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApiError, serviceUnavailable } from './errors.js';

/**
 * Runs a short workflow to completion for a request (the API does no heavy work itself).
 * Temporal unreachable → 503; the workflow failing → 500 (the caller refunds what it debited).
 */
export async function runWorkflow<T>(ctx: Context, type: string, args: unknown[], idPrefix: string, timeout = '60s', onFailure?: (error: WorkflowFailedError) => ApiError): Promise<T> {
  const { temporal, config } = ctx.services;
  try {
    return (await temporal.workflow.execute(type, {
      taskQueue: config.taskQueue,
      workflowId: `${idPrefix}-${randomUUID()}`,
      workflowExecutionTimeout: timeout,
      args,
    })) as T;
  } catch (error) {
    if (error instanceof WorkflowFailedError) throw onFailure?.(error) ?? new ApiError(500, 'internal_error', `The ${type} step failed; nothing was billed. Please retry.`);
    throw serviceUnavailable('The workflow service is unreachable; nothing was billed. Please retry.');
  }
}
