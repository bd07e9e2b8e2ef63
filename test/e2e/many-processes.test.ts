import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { awayFromMinuteBoundary, createAccount, eventually, spawnApiProcess, type ApiProcess } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { killAbruptly, spawnNode } from '../support/processes.js';
import { stack } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { createWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { RECONCILER_GRACE_MS } from '../../domain/mailings/creation-protocol.js';
import { reconcileMailings } from '../../workflows/index.js';

const MAILINGS = 500;
const RATE_LIMIT = 1000;
const SANDBOX_QUOTA = 120;

/**
 * A client behind a load balancer: each request goes to one API; a refused connection, a 5xx or a
 * 409 in progress (a claim of the killed API, until IDEMPOTENCY_LEASE) is retried, on the next API,
 * with the same Idempotency-Key.
 */
async function post(
  apis: ApiProcess[],
  first: number,
  key: string,
  idempotencyKey: string,
  body: unknown,
): Promise<{ status: number; body: any; replayed: boolean }> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const api = apis[(first + attempt) % apis.length]!;
    try {
      const res = await fetch(`${api.url}/v1/mailings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
      });
      const answer = { status: res.status, body: (await res.json()) as any, replayed: res.headers.get('idempotent-replayed') === 'true' };
      if (res.status !== 409 && res.status < 500) return answer;
    } catch {
      // The API went away with the request: the same key again, elsewhere.
    }
    await sleep(250);
  }
  throw new Error(`POST /v1/mailings with Idempotency-Key ${idempotencyKey} never answered`);
}

const get = (api: ApiProcess, key: string, path: string): Promise<number> =>
  fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${key}` } }).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });

/** `count` calls spread over the APIs, `concurrency` at a time; the statuses in order of sending. */
async function spread(apis: ApiProcess[], count: number, concurrency: number, one: (api: ApiProcess, i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = new Array<number>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) statuses[i] = await one(apis[i % apis.length]!, i);
    }),
  );
  return statuses;
}

const tally = (statuses: number[]): Record<number, number> => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

/**
 * Many processes, one truth (issue 27, part 6): two API processes and three workers with different
 * roles on one PostgreSQL and one Temporal. Limits, quotas and idempotency hold across the APIs;
 * 500 live mailings sent through both, one API and one worker killed mid-run, each mailing ends
 * (those the killed API recorded without starting their workflow, through the reconciler), each
 * webhook is delivered and each debit is made once.
 */
describe('many processes on one PostgreSQL and one Temporal', function () {
  this.timeout(900_000);
  const taskQueue = `many-${randomUUID()}`;
  const env = {
    TEMPORAL_TASK_QUEUE: taskQueue,
    OPERATOR_STEP_DELAY: '100ms',
    OPERATOR_FAIL_FIRST_FILINGS: '0',
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    SANDBOX_DAILY_QUOTA: String(SANDBOX_QUOTA),
    // Far above these requests' time; short, so that keys the killed API held are free again soon.
    IDEMPOTENCY_LEASE: '15s',
  };
  let apis: ApiProcess[] = [];
  const workers: ChildProcess[] = [];
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await new WebhookReceiver().start();
    apis = await Promise.all([spawnApiProcess(env), spawnApiProcess(env)]);
    // Roles split as a deployment would: workflows and deliveries; printing; and one that does both (killed below).
    workers.push(spawnNode('worker', { ...env, WORKER_ROLES: 'mailings,deliveries,tracking,partners' }));
    workers.push(spawnNode('worker', { ...env, WORKER_ROLES: 'printing' }));
    workers.push(spawnNode('worker', { ...env, WORKER_ROLES: 'mailings,deliveries,printing,tracking' }));
  });
  after(async () => {
    await Promise.all(workers.map(killAbruptly));
    await Promise.all(apis.map((api) => api.stop()));
    await receiver.stop();
  });

  it('counts the per-key rate limit and the sandbox quota exactly across both APIs', async () => {
    const account = await createAccount();
    // The rate limit counts per minute: the burst stays inside one.
    await awayFromMinuteBoundary(20);
    const rate = await spread(apis, RATE_LIMIT + 60, 40, (api) => get(api, account.liveKey, '/v1/catalogue'));
    expect(tally(rate)).to.deep.equal({ 200: RATE_LIMIT, 429: 60 });
    const quota = await spread(apis, SANDBOX_QUOTA + 30, 40, (api) => get(api, account.testKey, '/v1/catalogue'));
    expect(tally(quota)).to.deep.equal({ 200: SANDBOX_QUOTA, 429: 30 });
  });

  it('creates one mailing, and debits once, for one Idempotency-Key sent to both APIs at once', async () => {
    const account = await createAccount({ balanceCents: 10_000 });
    const body = { mode: 'simple', letter: freeLetter, sender, recipient };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${apis[i % 2]!.url}/v1/mailings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${account.liveKey}`, 'content-type': 'application/json', 'idempotency-key': 'one-for-all' },
          body: JSON.stringify(body),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as any, replayed: res.headers.get('idempotent-replayed') === 'true' })),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(answers.every((a) => a.status === 201 || (a.status === 409 && a.body.error.code === 'idempotency_in_progress'))).to.equal(true);
    expect(created.filter((a) => !a.replayed)).to.have.length(1);
    expect(new Set(created.map((a) => a.body.id)).size).to.equal(1);
    const { db } = stack();
    expect(Number((await db('shipments').where({ account_id: account.id }).count({ n: '*' }))[0]!.n)).to.equal(1);
    expect(Number((await db('ledger_entries').where({ account_id: account.id, kind: 'debit' }).count({ n: '*' }))[0]!.n)).to.equal(1);
  });

  it(`takes ${MAILINGS} live mailings through both APIs, one API and one worker killed mid-run: each ends, each webhook arrives, each debit is made once`, async () => {
    const { db, config, temporal } = stack();
    const startingBalance = 10_000_000;
    const account = await createAccount({ balanceCents: startingBalance });
    await createWebhookEndpoint(db, config, { accountId: account.id, url: receiver.url, env: 'live', events: [] });
    const body = { mode: 'simple', letter: freeLetter, sender, recipient };
    let sent = 0;
    const killing = (async () => {
      while (sent < MAILINGS * 0.3) await sleep(20);
      // Mid-run: the second API and the worker that does everything go, without a chance to drain.
      await Promise.all([apis[1]!.kill(), killAbruptly(workers[2]!)]);
    })();
    const ids = new Array<string>(MAILINGS);
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = next++; i < MAILINGS; i = next++) {
          const answer = await post(apis, i, account.liveKey, `many-${i}`, body);
          expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
          ids[i] = answer.body.id as string;
          sent++;
        }
      }),
    );
    await killing;
    expect(new Set(ids).size).to.equal(MAILINGS);

    // Every mailing ends (a simple letter ends posted, with its filing proof), none twice. The API
    // answers once a mailing is recorded and starts its workflow right after: the mailings the killed
    // API had answered but not yet started have no workflow, and the reconciler starts them once they
    // are past its grace period (its schedule runs every 10 minutes; here it is run then, for this account).
    const posted = async (): Promise<number> => Number((await db('shipments').where({ account_id: account.id, status: 'posted' }).count({ n: '*' }))[0]!.n);
    const lastAnswer = Date.now();
    let reconciled = false;
    while ((await posted()) < MAILINGS) {
      const waited = Date.now() - lastAnswer;
      if (!reconciled && waited > RECONCILER_GRACE_MS + 5_000) {
        reconciled = true;
        const { resumed } = await temporal.client.workflow.execute(reconcileMailings, {
          taskQueue,
          workflowId: `reconcile-many-${randomUUID()}`,
          args: [{ accountId: account.id }],
        });
        console.log(`      (the reconciler started ${resumed.length} mailing(s) the killed API had recorded but not started)`);
      }
      if (waited > RECONCILER_GRACE_MS + 300_000) throw new Error(`${MAILINGS - (await posted())} mailings never reached posted`);
      await sleep(1_000);
    }
    const rows: { id: string; amount_cents: number }[] = await db('shipments').where({ account_id: account.id }).select('id', 'amount_cents');
    expect(rows.map((r) => r.id).sort()).to.deep.equal([...ids].sort());
    const running = await eventually(
      () => temporal.client.workflow.count(`WorkflowType = "mailing" AND ExecutionStatus = "Running" AND AccountId = "${account.id}"`),
      (c) => c.count === 0,
      60_000,
      1_000,
    );
    expect(running.count).to.equal(0);

    // Each debit once: the balance is the start less each mailing's price, and no refund was made.
    const charged = rows.reduce((sum, r) => sum + Number(r.amount_cents), 0);
    const debits: { kind: string; n: string; total: string }[] = await db('ledger_entries')
      .where({ account_id: account.id })
      .select('kind')
      .count({ n: '*' })
      .sum({ total: 'amount_cents' })
      .groupBy('kind');
    const byKind = Object.fromEntries(debits.map((d) => [d.kind, { n: Number(d.n), total: Number(d.total) }]));
    expect(byKind.debit).to.deep.equal({ n: MAILINGS, total: -charged });
    expect(byKind.refund).to.equal(undefined);
    expect(Number((await db('accounts').where({ id: account.id }).first('balance_cents'))!.balance_cents)).to.equal(startingBalance - charged);

    // Each mailing's four events reached the receiver (deliveries retried after the kill may arrive twice: receivers deduplicate by event id).
    const wanted = new Set(
      ids.flatMap((id) => ['mailing.created', 'mailing.printed', 'mailing.posted', 'mailing.proof_available'].map((type) => `${id} ${type}`)),
    );
    const arrived = (received: typeof receiver.received): Set<string> =>
      new Set(received.map((w) => `${w.body.data?.mailing?.id} ${w.body.type}`).filter((k) => wanted.has(k)));
    await receiver.until((received) => arrived(received).size === wanted.size, 300_000);
    const deliveries = await eventually(
      async () =>
        tally(
          (await db('webhook_deliveries').where({ account_id: account.id }).select('status')).map((d: { status: string }) =>
            d.status === 'delivered' ? 1 : 0,
          ),
        ),
      (t) => !t[0],
      60_000,
      1_000,
    );
    // One delivery per event to the one endpoint, each delivered.
    expect(deliveries).to.deep.equal({ 1: wanted.size });
  });
});
