import { expect } from 'chai';
import { balanceOf, createAccount, eventually, IsolatedServices, startedMailingWorkflow } from '../support/api.js';
import { stack } from '../support/stack.js';

describe('a letter that can never be filed', function () {
  this.timeout(60_000);
  const services = new IsolatedServices({
    TEMPORAL_TASK_QUEUE: 'filing-rejected',
    OPERATOR_FAIL_FIRST_FILINGS: '0',
    LOG_LEVEL: 'warn',
    TEMPORAL_LOG_LEVEL: 'ERROR',
  });
  before(() => services.start());
  after(() => services.stop());

  it('ends in error with the amount credited back, after one attempt (no retry for ever)', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    const created = await services.mail(account.liveKey);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.id as string;
    expect(await balanceOf(account.id)).to.be.below(10_000);
    // The stored layout breaks before any worker files it (a bad release, a corrupted row).
    await stack()
      .db('shipments')
      .where({ id })
      .update({ layout: JSON.stringify({ broken: true }) });
    services.startWorker();

    const handle = await startedMailingWorkflow(id);
    const result = (await handle.result()) as { status: string; step: number; lastStep: number };
    expect([result.status, result.step]).to.deep.equal(['error', result.lastStep]);
    expect(await balanceOf(account.id)).to.equal(10_000);
    const events = await eventually(
      () => stack().db('webhook_events').where({ shipment_id: id }).pluck('type'),
      (types) => types.includes('mailing.error'),
    );
    expect(events).to.include('mailing.error');
    expect(await stack().db('operator_filings').where({ shipment_id: id }).first()).to.equal(undefined);
    const history = await handle.fetchHistory();
    const filingAttempts = history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fileWithOperator');
    expect(filingAttempts).to.have.length(1);
  });
});
