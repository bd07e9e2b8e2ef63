import type { Db } from '../../db/knex.js';
import type { Knex } from 'knex';
import { keysetQuery, page } from '../pagination.js';
import { MAILING_VIEW_SELECT, mailingOfRow, type Mailing, type MailingViewRowWithHistory } from './mailing.js';
import type { MailingStatus } from './states.js';

export interface MailingFilter {
  accountId: string;
  /** Test (sandbox) or live mailings: one environment per list. */
  test: boolean;
  reference?: string;
  status?: MailingStatus;
  /** Only the mailings of this batch (its own index, shipments_list_by_batch). */
  batch?: string;
  limit: number;
  cursor?: string;
}

const scopeOf = (filter: MailingFilter): string => `mailings:${filter.accountId}:${filter.test ? 'test' : 'live'}`;

/**
 * The one statement of a page, the mailings with their events and proofs (each filter walks an
 * index in the list's order: db/migrations, checked by test/e2e/mailing-list-plans.test.ts).
 */
export function mailingPageStatement(db: Db, secretKey: Buffer, filter: MailingFilter): Knex.QueryBuilder {
  let q = db({ s: 'shipments' }).select(db.raw(MAILING_VIEW_SELECT)).where({ 's.account_id': filter.accountId, 's.test': filter.test });
  if (filter.reference !== undefined) q = q.andWhere({ 's.reference': filter.reference });
  if (filter.status !== undefined) q = q.andWhere({ 's.status': filter.status });
  if (filter.batch !== undefined) q = q.andWhere({ 's.batch_id': filter.batch });
  return keysetQuery(q, filter, secretKey, scopeOf(filter));
}

/**
 * One page of an account's mailings of one environment, most recent first, with their events and
 * proofs, in one statement: GET /v1/mailings and the developer space's mailings page. An unreadable cursor is
 * InvalidRequest (invalid_cursor); a cursor works for its account and environment only.
 */
export async function listMailings(
  db: Db,
  secretKey: Buffer,
  filter: MailingFilter,
): Promise<{ data: Mailing[]; nextCursor: string | null; hasMore: boolean }> {
  const rows = (await mailingPageStatement(db, secretKey, filter)) as MailingViewRowWithHistory[];
  const result = page(rows, filter.limit, secretKey, scopeOf(filter));
  return { data: result.rows.map((row) => mailingOfRow(row, true).shipment), nextCursor: result.nextCursor, hasMore: result.hasMore };
}

/** Mailings by status, live and test apart (the worker's metrics: what is in flight, what ended in error). */
export async function countMailingsByStatus(db: Db): Promise<{ status: MailingStatus; test: boolean; count: number }[]> {
  const rows: { status: MailingStatus; test: boolean; n: string }[] = await db('shipments')
    .select('status', 'test')
    .count({ n: '*' })
    .groupBy('status', 'test');
  return rows.map((r) => ({ status: r.status, test: r.test, count: Number(r.n) }));
}
