/**
 * What every adapter of the domain's workflow ports (domain/<module>/port.ts) shares on a Temporal
 * client: one deadline scope for all its calls (./fast-path.ts), and the failures told apart by type or gRPC
 * status, never by message text.
 */
import { type Client, isGrpcServiceError, ServiceError } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '../lib/config.js';
import { serviceUnavailable } from '../domain/errors.js';
import { deadlineScope, type DeadlineScope } from './fast-path.js';

/** A Temporal client, the configuration (task queues) and the one deadline scope of its calls. */
export interface TemporalCalls {
  client: Client;
  config: Config;
  withDeadline: DeadlineScope;
}

/** One per client: the adapters share its count of calls in flight (see deadlineScope). */
export function temporalCalls(client: Client, config: Config): TemporalCalls {
  return { client, config, withDeadline: deadlineScope(client) };
}

export const unreachable = (): Error => serviceUnavailable('The workflow service is unreachable; nothing was done. Please retry.');

/** gRPC status NOT_FOUND: what a workflow that has ended (or never existed) answers to updates. */
const GRPC_NOT_FOUND = 5;

export function isEnded(error: unknown): boolean {
  if (error instanceof WorkflowNotFoundError) return true;
  const cause = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(cause) && cause.code === GRPC_NOT_FOUND;
}
