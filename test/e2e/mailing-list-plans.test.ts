import { expect } from 'chai';
import type { Knex } from 'knex';
import { call, createAccount, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { RARE_STATUS, REFERENCE, seedShipments } from '../support/seed-shipments.js';
import { shipmentListQuery, type ShipmentFilter } from '../../domain/mailings/listing.js';
import { encodeCursor } from '../../domain/pagination.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/**
 * The plan of every list filter of GET /v1/mailings at 100,000 mailings on one account: an index
 * walked in the list's order, no sort, no sequential scan. Plans, not timings (speed lives in
 * `npm run bench`, where each filter is compared with the unfiltered first page).
 */
describe('GET /v1/mailings at 100,000 mailings: each filter walks an index in the list order', function () {
  this.timeout(180_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount();
    const res = await call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'registered', letter: freeLetter, sender, recipient } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    await seedShipments(stack().db, res.body.id, 100_000);
  });

  const planOf = async (filter: Omit<ShipmentFilter, 'accountId' | 'test' | 'limit'>): Promise<PlanNode[]> => {
    const { db, config } = stack();
    const { sql, bindings } = shipmentListQuery(db, config.secretKey, { accountId: account.id, test: true, limit: 20, ...filter })
      .toSQL()
      .toNative();
    const { rows } = await db.raw(`EXPLAIN (FORMAT JSON) ${sql.replace(/\$(\d+)/g, '?')}`, bindings as readonly Knex.RawBinding[]);
    return nodesOf(rows[0]['QUERY PLAN'][0].Plan as PlanNode);
  };

  const cases: [string, () => Omit<ShipmentFilter, 'accountId' | 'test' | 'limit'>, string][] = [
    ['the first page', () => ({}), 'shipments_account_id_test_created_at_id_index'],
    ['a status matched by 1 in 1,000', () => ({ status: RARE_STATUS }), 'shipments_list_by_status'],
    ['a common status', () => ({ status: 'delivered' }), 'shipments_list_by_status'],
    ['a reference', () => ({ reference: REFERENCE }), 'shipments_list_by_reference'],
    [
      'a cursor deep in the list',
      () => ({
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
    it(`${name}: ${index}, no sort, no sequential scan`, async () => {
      const nodes = await planOf(filter());
      const described = JSON.stringify(nodes.map((n) => [n['Node Type'], n['Index Name'] ?? n['Relation Name'] ?? '']));
      expect(
        nodes.some((n) => n['Index Name'] === index),
        described,
      ).to.equal(true);
      expect(
        nodes.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort'),
        described,
      ).to.equal(false);
      expect(
        nodes.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'shipments'),
        described,
      ).to.equal(false);
    });
  }
});
