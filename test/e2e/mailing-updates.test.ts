import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { call, createAccount, type TestAccount, startedMailingWorkflow } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { mailingWorkflowId } from '../../workflows/contract.js';

/** EventType WORKFLOW_EXECUTION_UPDATE_ACCEPTED of Temporal's history. */
const UPDATE_ACCEPTED = 41;

async function acceptedUpdates(mailingId: string): Promise<number> {
  const history = await stack().temporal.client.workflow.getHandle(mailingWorkflowId(mailingId)).fetchHistory();
  return history.events!.filter((e) => e.eventType === UPDATE_ACCEPTED).length;
}

describe('moves of a test mailing (the advance update)', function () {
  this.timeout(60_000);
  let account: TestAccount;
  before(async () => {
    account = await createAccount();
  });
  const mail = async (mode = 'registered'): Promise<string> =>
    (await call('POST', '/v1/mailings', { key: account.testKey, body: { mode, letter: freeLetter, sender, recipient } })).body.id;
  const advance = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    call('POST', `/v1/test/mailings/${id}/advance`, { key: account.testKey, body, headers });

  it('refuses "returned" before the letter is posted, in the validator: 409, nothing in the history', async () => {
    const id = await mail();
    // Operators read what it is in the Temporal UI's list.
    const described = await (await startedMailingWorkflow(id)).describe();
    expect(await described.staticSummary()).to.equal('registered · no reference · test');
    const refused = await advance(id, { status: 'returned' });
    expect(refused.status).to.equal(409);
    expect(refused.body.error.message).to.include('returned only once posted');
    expect(await acceptedUpdates(id)).to.equal(0);
    const { body } = await call('GET', `/v1/mailings/${id}`, { key: account.testKey });
    expect([body.status, body.step, body.proofs]).to.deep.equal(['paid', 0, []]);
    // Once posted, a return is a move like any other, with its proof.
    expect((await advance(id, { step: 2 })).body.status).to.equal('posted');
    const returned = await advance(id, { status: 'returned' });
    expect(returned.status).to.equal(200);
    expect(returned.body.status).to.equal('returned');
    expect(returned.body.proofs.map((p: { kind: string }) => p.kind)).to.include('return');
  });

  it('refuses a step out of range (422) or not ahead (409) without entering the history', async () => {
    const id = await mail('simple');
    expect((await advance(id, { step: 5 })).status).to.equal(422);
    expect((await advance(id, { step: 1 })).status).to.equal(200);
    expect((await advance(id, { step: 1 })).status).to.equal(409);
    expect(await acceptedUpdates(id)).to.equal(1);
  });

  it('moves once for one Idempotency-Key, even when the stored answer was lost (the key is the update id)', async () => {
    const id = await mail();
    const key = randomUUID();
    expect((await advance(id, {}, { 'idempotency-key': key })).body.step).to.equal(1);
    // A crash after the move and before the answer was stored: the key is free again.
    await stack().db('idempotency_keys').where({ account_id: account.id, key }).delete();
    const retried = await advance(id, {}, { 'idempotency-key': key });
    expect(retried.status).to.equal(200);
    expect(retried.body.step).to.equal(1);
    expect(await acceptedUpdates(id)).to.equal(1);
  });

  /** The same mailing under a new id, recorded as POST /v1/mailings records it, with no workflow. */
  async function recordedWithoutWorkflow(id: string): Promise<string> {
    const { db } = stack();
    const orphan = randomUUID();
    const row = await db('shipments').where({ id }).first();
    await db('shipments').insert({ ...row, id: orphan, step: 0, status: 'paid' });
    await db('shipment_events').insert({ shipment_id: orphan, step: 0, status: 'paid', at: row.created_at });
    await db('mailing_records').insert({ shipment_id: orphan, outcome: 'recorded' });
    return orphan;
  }

  it('a mailing answered before its workflow started (the process died in between) is started by its first advance or cancel', async () => {
    const id = await mail();
    const advanced = await recordedWithoutWorkflow(id);
    const moved = await advance(advanced, {});
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body.status).to.equal('printed');
    expect(await acceptedUpdates(advanced)).to.equal(1);

    const canceled = await recordedWithoutWorkflow(id);
    const res = await call('POST', `/v1/mailings/${canceled}/cancel`, { key: account.testKey });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.status).to.equal('canceled');
  });

  it('a mailing whose workflow was ended by hand is not started again by a move: 409, and only the reconciler restarts it', async () => {
    const id = await mail();
    const handle = stack().temporal.client.workflow.getHandle(mailingWorkflowId(id));
    // Answered before its start: wait until the workflow exists.
    for (let i = 0; i < 50 && !(await handle.describe().catch(() => undefined)); i++) await new Promise((r) => setTimeout(r, 100));
    await handle.terminate('test: ended by hand');
    const res = await advance(id, {});
    expect(res.status, res.text).to.equal(409);
    expect((await handle.describe()).status.name).to.equal('TERMINATED');
  });
});
