import { expect } from 'chai';
import { balanceOf, call, createAccount, eventually, IsolatedServices } from '../support/api.js';
import { stack } from '../support/stack.js';
import { mailingWorkflowId } from '../../workflows/contract.js';

describe('cancel while the filing is retried', function () {
  this.timeout(60_000);
  // A postal operator that refuses every filing: the workflow retries it for as long as it takes.
  const services = new IsolatedServices({
    TEMPORAL_TASK_QUEUE: 'cancel-during-filing',
    OPERATOR_FAIL_FIRST_FILINGS: '1000',
    LOG_LEVEL: 'warn',
    TEMPORAL_LOG_LEVEL: 'ERROR',
  });
  before(async () => {
    await services.start();
    services.startWorker();
  });
  after(() => services.stop());

  it('answers at once, credits the amount back, and the letter is never filed', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    const created = await services.mail(account.liveKey);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.id as string;
    expect(await balanceOf(account.id)).to.equal(10_000 - created.body.amountCents);

    // The operator has refused at least twice: the filing is being retried.
    const attempts = async (): Promise<number> => Number((await stack().db('operator_filings').where({ shipment_id: id }).first())?.attempts ?? 0);
    expect(await eventually(attempts, (n) => n >= 2, 20_000, 200)).to.be.at.least(2);

    const started = Date.now();
    const canceled = await call('POST', `/v1/mailings/${id}/cancel`, { key: account.liveKey, baseUrl: services.api.url });
    expect(canceled.status, JSON.stringify(canceled.body)).to.equal(200);
    expect(Date.now() - started).to.be.below(5000);
    expect(canceled.body.status).to.equal('canceled');
    expect(await balanceOf(account.id)).to.equal(10_000);

    // The workflow stops retrying and ends; nothing reached the operator.
    const result = (await stack().temporal.client.workflow.getHandle(mailingWorkflowId(id)).result()) as { status: string };
    expect(result.status).to.equal('canceled');
    expect((await stack().db('operator_filings').where({ shipment_id: id }).first())?.filed_at ?? null).to.equal(null);
  });
});
