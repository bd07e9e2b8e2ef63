import { expect } from 'chai';
import { asyncLocalStorage, type Context } from '@temporalio/activity';
import { whileHeartbeating } from '../../activities/heartbeats.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The worker puts an activity's context in this storage; here one that only counts heartbeats. */
function inActivity<T>(work: () => Promise<T>): { beats: () => number; done: Promise<T> } {
  let beats = 0;
  const context = { heartbeat: () => void beats++ } as unknown as Context;
  return { beats: () => beats, done: asyncLocalStorage.run(context, work) };
}

describe('whileHeartbeating (the long sending and filing calls)', () => {
  it('heartbeats while a long call lasts, and stops with it', async () => {
    const run = inActivity(() => whileHeartbeating(() => sleep(260).then(() => 'filed'), 50));
    expect(await run.done).to.equal('filed');
    const atEnd = run.beats();
    expect(atEnd).to.be.at.least(2);
    await sleep(150);
    expect(run.beats(), 'no heartbeat once the call has ended').to.equal(atEnd);
  });

  it('a call shorter than the interval sends none; a failure passes through and stops them', async () => {
    const quick = inActivity(() => whileHeartbeating(() => sleep(5).then(() => 'sent'), 100));
    expect(await quick.done).to.equal('sent');
    expect(quick.beats()).to.equal(0);
    const failing = inActivity(() => whileHeartbeating(() => sleep(120).then(() => Promise.reject(new Error('maintenance'))), 50));
    await failing.done.then(
      () => expect.fail('the failure must pass through'),
      (error: Error) => expect(error.message).to.equal('maintenance'),
    );
    const atEnd = failing.beats();
    await sleep(150);
    expect(failing.beats()).to.equal(atEnd);
  });

  it('outside an activity (a direct call) it runs the call alone', async () => {
    expect(await whileHeartbeating(async () => 42, 10)).to.equal(42);
  });
});
