/**
 * The Temporal client's fast path: where we read or switch the client's internals to spare CPU on
 * every request of the API. The versions it reads are pinned exactly in package.json (@temporalio/*)
 * and checked by test/unit/fast-path.test.ts (@grpc/grpc-js, which @temporalio/client brings),
 * which fails on an upgrade that changes what it relies on (docs/performance.md, "The fast path"):
 * - deadlineScope switches the Connection's call context storage off when no call is in flight;
 * - channelReady reads the Connection's private grpc-js client for the channel's state.
 */
import { type Client, Connection } from '@temporalio/client';

export type DeadlineScope = <T>(ms: number, fn: () => Promise<T>) => Promise<T>;

/**
 * `fn` under a deadline for its Temporal calls. The client keeps deadlines in an AsyncLocalStorage,
 * and once one is used, Node 20 runs async hooks on every promise of the process (a cheap request
 * then costs about a tenth more, whether or not it calls Temporal). It is switched off again
 * whenever no call is in flight, so reads and lists do not pay for the mailings being started.
 */
export function deadlineScope(client: Client): DeadlineScope {
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
