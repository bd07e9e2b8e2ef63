/**
 * What every adapter of the domain's workflow ports (domain/<module>/port.ts) shares on a Temporal
 * client: one deadline scope for all its calls, and the failures told apart by type or gRPC
 * status, never by message text.
 */
import { type Client, Connection, isGrpcServiceError, ServiceError } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Config } from '../lib/config.js';
import { serviceUnavailable } from '../domain/errors.js';

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

export type DeadlineScope = <T>(ms: number, fn: () => Promise<T>) => Promise<T>;

/**
 * `fn` under a deadline for its Temporal calls. The client keeps deadlines in an AsyncLocalStorage,
 * and once one is used, Node 20 runs async hooks on every promise of the process (a cheap request
 * then costs about a tenth more, whether or not it calls Temporal). It is switched off again
 * whenever no call is in flight, so reads and lists do not pay for the mailings being started.
 */
function deadlineScope(client: Client): <T>(ms: number, fn: () => Promise<T>) => Promise<T> {
  let inFlight = 0;
  return async (ms, fn) => {
    inFlight += 1;
    try {
      return await client.connection.withDeadline(Date.now() + ms, fn);
    } finally {
      inFlight -= 1;
      if (inFlight === 0 && client.connection instanceof Connection) client.connection.callContextStorage.disable();
    }
  };
}

/** gRPC's ConnectivityState.READY. */
const CHANNEL_READY = 2;

/**
 * Whether the client's gRPC channel is connected now, read without any call. The Connection keeps
 * its grpc-js client out of its typed surface; anything unexpected reads as "not connected", which
 * only means the API starts workflows before answering.
 */
export function channelReady(connection: unknown): boolean {
  try {
    const grpcClient = (connection as unknown as { client?: { getChannel(): { getConnectivityState(connect: boolean): number } } }).client;
    return grpcClient?.getChannel().getConnectivityState(false) === CHANNEL_READY;
  } catch {
    return false;
  }
}
