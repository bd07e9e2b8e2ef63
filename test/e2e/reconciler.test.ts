import { expect } from 'chai';
import { balanceOf, call, createAccount, eventually, IsolatedServices, startedMailingWorkflow } from '../support/api.js';
import { stack } from '../support/stack.js';
import { reconcileMailings } from '../../workflows/index.js';
import { resumeUnattendedMailings } from '../../domain/mailings/reconcile.js';
import { domainDeps } from '../../temporal/domain-deps.js';

const QUEUE = 'reconciler-test';

describe('the mailing reconciler (a non-final shipment always has a running workflow)', function () {
  this.timeout(120_000);
  const env = { OPERATOR_STEP_DELAY: '300ms', OPERATOR_FAIL_FIRST_FILINGS: '0', LOG_LEVEL: 'warn' };
  const services = new IsolatedServices({ ...env, TEMPORAL_TASK_QUEUE: QUEUE });
  // Mailings created here are queued where no worker ever runs: they stay paid, never filed.
  const unserved = new IsolatedServices({ ...env, TEMPORAL_TASK_QUEUE: 'reconciler-unserved' });
  before(async () => {
    await Promise.all([services.start(), unserved.start()]);
    services.startWorker();
  });
  after(() => Promise.all([services.stop(), unserved.stop()]));

  /** What an operator's mistake or a bug leaves: the mailing unfinished, its workflow closed. */
  async function loseWorkflow(mailingId: string, createdAgo: string): Promise<void> {
    await (await startedMailingWorkflow(mailingId)).terminate('test: the workflow is lost');
    await stack()
      .db('shipments')
      .where({ id: mailingId })
      .update({ created_at: stack().db.raw(`now() - interval '${createdAgo}'`) });
  }

  const reconcile = (accountId: string) =>
    stack().temporal.client.workflow.execute(reconcileMailings, {
      taskQueue: QUEUE,
      workflowId: `reconcile-${accountId}-${Date.now()}`,
      args: [{ accountId }],
    });

  const mailing = (id: string) => stack().db('shipments').where({ id }).first('status', 'step');
  const eventSteps = async (id: string) => (await stack().db('shipment_events').where({ shipment_id: id }).orderBy('step').select('step')).map((e) => e.step);

  it('files and posts a paid live mailing whose workflow was lost before filing, charged once', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    const res = await unserved.mail(account.liveKey);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.id as string;
    const balance = await balanceOf(account.id);
    // Terminated before any worker ran it; the reconciler's worker takes it on.
    await loseWorkflow(id, '5 minutes');
    const { resumed } = await reconcile(account.id);
    expect(resumed).to.deep.equal([id]);
    expect(
      await eventually(
        () => mailing(id),
        (s) => s?.status === 'posted',
        30_000,
        200,
      ),
    ).to.deep.include({ status: 'posted', step: 2 });
    expect(await eventSteps(id)).to.deep.equal([0, 1, 2]);
    expect(await stack().db('operator_filings').where({ shipment_id: id }).count({ n: '*' })).to.deep.equal([{ n: '1' }]);
    expect(await balanceOf(account.id)).to.equal(balance);
  });

  it('resumes a test mailing where it was: the next advance moves it on', async () => {
    const account = await createAccount();
    const res = await services.mail(account.testKey, 'ar');
    const id = res.body.id as string;
    const advanced = await call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body: { step: 2 }, baseUrl: services.api.url });
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    await loseWorkflow(id, '5 minutes');
    // Without a workflow, the mailing cannot move: the answer says it has ended.
    const refused = await call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body: {}, baseUrl: services.api.url });
    expect(refused.status).to.equal(409);
    expect((await reconcile(account.id)).resumed).to.deep.equal([id]);
    const next = await call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body: {}, baseUrl: services.api.url });
    expect(next.status, JSON.stringify(next.body)).to.equal(200);
    expect(next.body).to.deep.include({ status: 'in_transit', step: 3 });
    expect(await eventSteps(id)).to.deep.equal([0, 1, 2, 3]);
    // Nothing was announced twice: one mailing.created, one mailing.posted.
    const types = (await stack().db('webhook_events').where({ shipment_id: id }).select('type')).map((e) => e.type).sort();
    expect(types).to.deep.equal(['mailing.created', 'mailing.in_transit', 'mailing.posted', 'mailing.printed', 'mailing.proof_available']);
  });

  it('refunds, with mailing.error, a live mailing found unfiled more than 7 days after payment', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    const before = await balanceOf(account.id);
    const res = await unserved.mail(account.liveKey, 'registered');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.id as string;
    expect(await balanceOf(account.id)).to.be.below(before);
    await loseWorkflow(id, '8 days');
    expect((await reconcile(account.id)).resumed).to.deep.equal([id]);
    expect(
      await eventually(
        () => mailing(id),
        (s) => s?.status === 'error',
        30_000,
        200,
      ),
    ).to.deep.include({ status: 'error', step: 4 });
    expect(await balanceOf(account.id)).to.equal(before);
    // The event is recorded by the move after the refund's transaction: it follows the status.
    const types = await eventually(
      async () => (await stack().db('webhook_events').where({ shipment_id: id }).select('type')).map((e) => e.type as string),
      (t) => t.includes('mailing.error'),
      30_000,
      200,
    );
    expect(types).to.include('mailing.error');
  });

  it('leaves alone a mailing whose workflow runs', async () => {
    const account = await createAccount();
    const res = await services.mail(account.testKey);
    await stack()
      .db('shipments')
      .where({ id: res.body.id })
      .update({ created_at: stack().db.raw(`now() - interval '5 minutes'`) });
    expect(await reconcile(account.id)).to.deep.equal({ checked: 1, resumed: [] });
  });

  it('leaves alone a mailing that reached its end between the batch read and the check of its workflow', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    const res = await unserved.mail(account.liveKey);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.id as string;
    await loseWorkflow(id, '5 minutes');
    const { db, config, temporal } = stack();
    const deps = domainDeps(db, config, temporal.client);
    // The workflow ends while the reconciler looks at it: its last step written, then closed.
    const mailings = {
      ...deps.workflows.mailings,
      isRunning: async (mailingId: string) => {
        if (mailingId === id) await db('shipments').where({ id }).update({ status: 'posted', step: 2 });
        return deps.workflows.mailings.isRunning(mailingId);
      },
    };
    const workflows = { ...deps.workflows, mailings };
    const { checked, resumed } = await resumeUnattendedMailings({ ...deps, workflows }, { accountId: account.id });
    expect(checked).to.equal(1);
    expect(resumed).to.deep.equal([]);
    expect((await (await startedMailingWorkflow(id)).describe()).status.name).to.equal('TERMINATED');
  });

  it('finds a recent mailing without a workflow however many older ones wait with theirs (the newest are looked at first)', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    const { db, config, temporal } = stack();
    // Older mailings whose workflows run (sandbox mailings wait up to 30 days for an advance).
    for (let i = 0; i < 4; i++) {
      const res = await unserved.mail(account.testKey);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      await startedMailingWorkflow(res.body.id as string);
      await db('shipments')
        .where({ id: res.body.id })
        .update({ created_at: db.raw(`now() - interval '${2 + i} days'`) });
    }
    // What a crash leaves: a mailing recorded a few minutes ago, without a workflow.
    const orphan = await unserved.mail(account.testKey);
    expect(orphan.status, JSON.stringify(orphan.body)).to.equal(201);
    await loseWorkflow(orphan.body.id as string, '3 minutes');
    const { checked, resumed } = await resumeUnattendedMailings(domainDeps(db, config, temporal.client), { accountId: account.id, batch: 4 });
    expect(checked).to.equal(4);
    expect(resumed).to.deep.equal([orphan.body.id]);
  });
  it('finds an orphan among more waiting mailings than one run looks at, wherever it stands: the sweep goes on from run to run, then starts again', async function () {
    this.timeout(240_000);
    const account = await createAccount({ balanceCents: 10_000 });
    const { db, config, temporal } = stack();
    const deps = domainDeps(db, config, temporal.client);
    // Eight older mailings, 2 to 9 days old; the one of 5 days has lost its workflow. A run of 4
    // looks at the 2 newest and the sweep's next 2: neither the newest nor the oldest find it.
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await unserved.mail(account.testKey);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      ids.push(res.body.id as string);
      await startedMailingWorkflow(res.body.id as string);
      await db('shipments')
        .where({ id: res.body.id })
        .update({ created_at: db.raw(`now() - interval '${2 + i} days'`) });
    }
    const orphan = ids[3]!;
    await (await startedMailingWorkflow(orphan)).terminate('test: the workflow is lost');
    const run = () => resumeUnattendedMailings(deps, { accountId: account.id, batch: 4 });
    // The sweep, oldest first: 9 and 8 days, then 7 and 6, then 5 (the orphan) and 4.
    expect(await run()).to.deep.equal({ checked: 4, resumed: [] });
    expect(await run()).to.deep.equal({ checked: 4, resumed: [] });
    expect(await run()).to.deep.equal({ checked: 4, resumed: [orphan] });
    // Its cursor is kept between runs, in the table the migration made.
    expect((await db('reconciler_cursors').where({ scope: account.id }).first('after_id')).after_id).to.equal(ids[2]);
    // A second orphan, among those the sweep has passed: the next run ends the pass (3 and 2 days,
    // also the newest), and the one after starts again at the oldest and finds it.
    await (await startedMailingWorkflow(ids[7]!)).terminate('test: the workflow is lost');
    expect(await run()).to.deep.equal({ checked: 2, resumed: [] });
    const next = await run();
    expect(next).to.deep.equal({ checked: 4, resumed: [ids[7]] });
  });
});
