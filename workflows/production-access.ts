import { ActivityFailure, ApplicationFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { CompanyProfile } from '../domain/lookups/results.js';
import { COMPANIES_QUEUE } from './contract.js';

/** How long the directory is asked again before the request is left to an operator. */
const GIVE_UP_AFTER_MS = 3 * 24 * 3600_000;
const FIRST_WAIT_MS = 5_000;
const LONGEST_WAIT_MS = 30 * 60_000;

// One question per attempt: the waits between them are the workflow's own timers, visible in its
// history (and skipped by the time-skipping test server).
const directory = proxyActivities<Activities>({ taskQueue: COMPANIES_QUEUE, startToCloseTimeout: '30s', retry: { maximumAttempts: 1 } });
const access = proxyActivities<Activities>({ startToCloseTimeout: '30s', retry: { initialInterval: '1s', maximumInterval: '1m' } });

/**
 * The later check of a production access request made while the directory could not be reached.
 * The directory is asked again (5 s, 10 s, 20 s… then every 30 minutes); once it answers (an unknown
 * SIRET is an answer), the same verdict as at submission is recorded: production opened, refused, or
 * left to an operator. A directory down for three days, or refusing the question, leaves the
 * request to the operators.
 */
export async function productionAccessCheck(requestId: string, siret: string): Promise<'opened' | 'pending' | 'refused' | 'decided' | 'unchecked'> {
  const started = Date.now();
  let profile: CompanyProfile | null | undefined;
  for (let wait = FIRST_WAIT_MS; profile === undefined; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      profile = await directory.companyProfile(siret);
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      const refused = error.cause instanceof ApplicationFailure && error.cause.nonRetryable;
      if (refused || Date.now() - started + wait > GIVE_UP_AFTER_MS) return 'unchecked';
      await sleep(wait);
    }
  }
  return access.completeProductionCheck(requestId, profile);
}
