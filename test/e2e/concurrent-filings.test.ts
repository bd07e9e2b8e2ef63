import { expect } from 'chai';
import { createAccount, eventually, IsolatedServices } from '../support/api.js';
import { stack } from '../support/stack.js';

/** More than the worker's pool of 10 connections. */
const LETTERS = 14;

describe('more concurrent live filings than database connections', function () {
  this.timeout(90_000);
  // Its own queue, so that only the worker started below files these letters.
  const services = new IsolatedServices({
    TEMPORAL_TASK_QUEUE: 'concurrent-filings',
    OPERATOR_FAIL_FIRST_FILINGS: '0',
    OPERATOR_STEP_DELAY: '1h',
    LOG_LEVEL: 'warn',
    TEMPORAL_LOG_LEVEL: 'ERROR',
  });
  before(() => services.start());
  // A graceful shutdown cancels the letters' long waits for the operator; it must not hang.
  after(() => services.stop());

  it('files every letter within seconds once a worker starts (no transaction spans printing or the operator call)', async () => {
    const account = await createAccount({ balanceCents: 100_000 });
    // Queued while no worker runs: they all start filing together when it comes.
    const ids = await Promise.all(
      Array.from({ length: LETTERS }, async () => {
        const res = await services.mail(account.liveKey);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        return res.body.id as string;
      }),
    );
    services.startWorker();
    const started = Date.now();
    const printed = async (): Promise<number> => Number((await stack().db('shipments').whereIn('id', ids).where('step', '>=', 1).count({ n: '*' }))[0]!.n);
    expect(await eventually(printed, (n) => n === LETTERS, 45_000, 250)).to.equal(LETTERS);
    // Before: every filing held a connection across printing while the operator took a second
    // one from the same pool; ten filings filled the pool and all waited ~60 s for a connection.
    expect(Date.now() - started).to.be.below(30_000);
  });
});
