import { expect } from 'chai';
import type { Knex } from 'knex';
import { call, createAccount, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { RARE_STATUS, REFERENCE, seedMailings } from '../support/seed-mailings.js';
import { mailingPageStatement, type MailingFilter } from '../../domain/mailings/listing.js';
import { encodeCursor } from '../../domain/pagination.js';
import { unfinishedMailingsStatement, type UnfinishedQuery } from '../../domain/mailings/reconcile.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

/** The nodes of a plan; `withSubPlans` false: the walk of the list itself, without the events and proofs read for each row shown. */
function nodesOf(plan: PlanNode, withSubPlans = true): PlanNode[] {
  const children = (plan.Plans ?? []).filter((child) => withSubPlans || child['Parent Relationship'] !== 'SubPlan');
  return [plan, ...children.flatMap((child) => nodesOf(child, withSubPlans))];
}

/**
 * The plan of every list filter of GET /v1/mailings at 100,000 mailings on one account (a third
 * test, two thirds live; filing proofs): the one statement of a page walks an index in the list's
 * order, with no sort and no sequential scan, and reads the events and proofs of the rows shown on
 * their primary keys. Plans, not timings (speed lives in `npm run bench`, where each filter is
 * compared with the unfiltered first page).
 */
describe('GET /v1/mailings at 100,000 mailings: each filter walks an index in the list order', function () {
  this.timeout(180_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount();
    const res = await call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'registered', letter: freeLetter, sender, recipient } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    await seedMailings(stack().db, res.body.id, 100_000, { testEvery: 3, proofs: true });
  });

  const planOf = async (filter: Omit<MailingFilter, 'accountId' | 'limit'>): Promise<PlanNode> => {
    const { db, config } = stack();
    const { sql, bindings } = mailingPageStatement(db, config.secretKey, { accountId: account.id, limit: 20, ...filter })
      .toSQL()
      .toNative();
    const { rows } = await db.raw(`EXPLAIN (FORMAT JSON) ${sql.replace(/\$(\d+)/g, '?')}`, bindings as readonly Knex.RawBinding[]);
    return rows[0]['QUERY PLAN'][0].Plan as PlanNode;
  };

  const cases: [string, () => Omit<MailingFilter, 'accountId' | 'limit'>, string][] = [
    ['the first page', () => ({ test: true }), 'shipments_account_id_test_created_at_id_index'],
    ['the first page of live mailings', () => ({ test: false }), 'shipments_account_id_test_created_at_id_index'],
    ['a status matched by 1 in 1,000', () => ({ test: true, status: RARE_STATUS }), 'shipments_list_by_status'],
    ['a common status', () => ({ test: true, status: 'delivered' }), 'shipments_list_by_status'],
    ['a reference', () => ({ test: true, reference: REFERENCE }), 'shipments_list_by_reference'],
    ['a live status', () => ({ test: false, status: RARE_STATUS }), 'shipments_list_by_status'],
    ['a status and a reference', () => ({ test: true, status: 'delivered', reference: REFERENCE }), 'shipments_list_by_reference'],
    [
      'a cursor deep in the list',
      () => ({
        test: true,
        cursor: encodeCursor(
          { createdAt: new Date(Date.now() - 50_000 * 60_000).toISOString(), id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' },
          stack().config.secretKey,
          `mailings:${account.id}:test`,
        ),
      }),
      'shipments_account_id_test_created_at_id_index',
    ],
    [
      'a status after a cursor',
      () => ({
        test: true,
        status: RARE_STATUS,
        cursor: encodeCursor(
          { createdAt: new Date().toISOString(), id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' },
          stack().config.secretKey,
          `mailings:${account.id}:test`,
        ),
      }),
      'shipments_list_by_status',
    ],
  ];
  for (const [name, filter, index] of cases) {
    it(`${name}: ${index}, no sort, no sequential scan, events and proofs on their keys`, async () => {
      const plan = await planOf(filter());
      const nodes = nodesOf(plan, false);
      const all = nodesOf(plan);
      const described = JSON.stringify(all.map((n) => [n['Node Type'], n['Index Name'] ?? n['Relation Name'] ?? '', n['Parent Relationship'] ?? '']));
      expect(
        nodes.some((n) => n['Index Name'] === index),
        described,
      ).to.equal(true);
      expect(
        nodes.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort'),
        described,
      ).to.equal(false);
      expect(
        all.some((n) => n['Node Type'] === 'Seq Scan'),
        described,
      ).to.equal(false);
      for (const key of ['shipment_events_pkey', 'shipment_proofs_pkey'])
        expect(
          all.some((n) => n['Index Name'] === key),
          described,
        ).to.equal(true);
    });
  }

  // The reconciler's scans over every account (the Schedule's runs): the newest unfinished
  // mailings, and its sweep from a cursor, walk the partial index of unfinished mailings.
  const reconcilerCases: [string, () => UnfinishedQuery][] = [
    ['the newest first', () => ({ batch: 250, newestFirst: true })],
    ['the sweep from its start', () => ({ batch: 250 })],
    [
      'the sweep after a cursor',
      () => ({ batch: 250, after: { createdAt: new Date(Date.now() - 50_000 * 60_000), id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' } }),
    ],
  ];
  for (const [name, options] of reconcilerCases) {
    it(`the reconciler's scan, ${name}: shipments_unfinished, no sort, no sequential scan`, async () => {
      const { sql, bindings } = unfinishedMailingsStatement(stack().db, options()).toSQL().toNative();
      const { rows } = await stack().db.raw(`EXPLAIN (FORMAT JSON) ${sql.replace(/\$(\d+)/g, '?')}`, bindings as readonly Knex.RawBinding[]);
      const all = nodesOf(rows[0]['QUERY PLAN'][0].Plan as PlanNode);
      const described = JSON.stringify(all.map((n) => [n['Node Type'], n['Index Name'] ?? n['Relation Name'] ?? '']));
      expect(
        all.some((n) => n['Index Name'] === 'shipments_unfinished'),
        described,
      ).to.equal(true);
      expect(
        all.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort' || n['Node Type'] === 'Seq Scan'),
        described,
      ).to.equal(false);
    });
  }
});
