import type { Db } from '../../db/knex.js';
import { keysetPage } from '../pagination.js';
import { SHIPMENT_VIEW_COLUMNS, shipmentsOf, type Shipment, type ShipmentViewRow } from './shipment.js';
import type { ShipmentStatus } from './states.js';

export interface ShipmentFilter {
  accountId: string;
  /** Test (sandbox) or live shipments: one environment per list. */
  test: boolean;
  reference?: string;
  status?: ShipmentStatus;
  limit: number;
  cursor?: string;
}

/**
 * One page of an account's shipments of one environment, most recent first, with their events and
 * proofs: GET /v1/mailings and the developer space's mailings page. An unreadable cursor is
 * InvalidRequest (invalid_cursor); a cursor works for its account and environment only.
 */
export async function listShipments(
  db: Db,
  secretKey: Buffer,
  filter: ShipmentFilter,
): Promise<{ data: Shipment[]; nextCursor: string | null; hasMore: boolean }> {
  const scope = `mailings:${filter.accountId}:${filter.test ? 'test' : 'live'}`;
  let q = db('shipments').select(SHIPMENT_VIEW_COLUMNS).where({ account_id: filter.accountId, test: filter.test });
  if (filter.reference !== undefined) q = q.andWhere({ reference: filter.reference });
  if (filter.status !== undefined) q = q.andWhere({ status: filter.status });
  const result = await keysetPage<ShipmentViewRow>(q, filter, secretKey, scope);
  return { data: await shipmentsOf(db, result.rows, true), nextCursor: result.nextCursor, hasMore: result.hasMore };
}
