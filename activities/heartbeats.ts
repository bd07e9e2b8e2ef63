import { Context } from '@temporalio/activity';

/**
 * How often a long call says it is alive. The schedules that use it (SENDING, FILING in
 * workflows/mailing/activities.ts) set a heartbeat timeout of 20 s: a worker killed mid-call is
 * noticed then, not at the end of the attempt's minutes.
 */
export const HEARTBEAT_EVERY_MS = 5_000;

/**
 * Runs `work`, heartbeating every `everyMs` while it lasts. The first heartbeat comes
 * only after that interval: a call that ends sooner (nearly all) costs the server nothing. Outside
 * an activity (a direct call in a test) it simply runs `work`.
 */
export async function whileHeartbeating<T>(work: () => Promise<T>, everyMs = HEARTBEAT_EVERY_MS): Promise<T> {
  let context: Context | undefined;
  try {
    context = Context.current();
  } catch {
    return work();
  }
  const ticker = setInterval(() => context.heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(ticker);
  }
}
