import { expect } from 'chai';
import {
  laterStartWindowMs,
  RECONCILER_GRACE_MS,
  RECORD_MAX_MS,
  RECORD_WAIT,
  recordWaitMs,
  START_DEADLINE_MS,
} from '../../domain/mailings/creation-protocol.js';

/** How the creation protocol's timings must relate (domain/mailings/creation-protocol.ts, DESIGN.md §1). */
describe('the creation protocol: its timings hold together', () => {
  it('adds up the workflow wait from its retry policy (50 ms × 1.5ⁿ capped at 2 s, 24 waits between 25 attempts)', () => {
    expect(recordWaitMs({ initialIntervalMs: 100, backoffCoefficient: 2, maximumIntervalMs: 300, maximumAttempts: 4 })).to.equal(100 + 200 + 300);
    expect(recordWaitMs()).to.be.within(33_000, 34_000);
  });

  it('the workflow waits for its record longer than a start-first creation can take to record it', () => {
    // Start first: the start may land and its answer take up to START_DEADLINE_MS, then the record
    // runs its statements. A wait shorter than both would lay a tombstone under a record on its way.
    expect(recordWaitMs()).to.be.greaterThan(START_DEADLINE_MS + RECORD_MAX_MS);
  });

  it("the reconciler's grace exceeds the workflow's wait and the starts made after the answer", () => {
    // Younger mailings may still be recording (the workflow waits) or starting (the API retries).
    expect(RECONCILER_GRACE_MS).to.be.greaterThan(recordWaitMs() + START_DEADLINE_MS);
    expect(RECONCILER_GRACE_MS).to.be.greaterThan(laterStartWindowMs());
  });

  it('the first retries of the wait are quick: the record usually lands within milliseconds of the start', () => {
    expect(RECORD_WAIT.initialIntervalMs).to.be.at.most(100);
  });
});
