import type { Db } from '../../db/knex.js';
import type { Knex } from 'knex';
import { keysetQuery, page } from '../pagination.js';
import { MAILING_VIEW_SELECT, mailingOfRow, type Mailing, type MailingViewRowWithHistory } from './mailing.js';
import type { MailingStatus, Mode } from './states.js';

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

/** A mailing as the account's export holds it: its stored row (letter, recipient, layout), its steps and which proofs it has. */
export interface ExportedMailing {
  row: Record<string, unknown>;
  events: { step: number; status: string; at: Date }[];
  proofKinds: string[];
}

/**
 * One page of the account's mailings for its export (domain/privacy/export.ts), in id order after
 * `afterId`: every column of the stored row, its events and the kinds of its proofs (their bytes
 * are read one at a time, `proofPdf`).
 */
export async function exportMailingsPage(db: Db, accountId: string, afterId: string | undefined, limit: number): Promise<ExportedMailing[]> {
  const query = db('shipments as s')
    .where('s.account_id', accountId)
    .orderBy('s.id')
    .limit(limit)
    .select(
      's.*',
      db.raw(
        `(SELECT coalesce(json_agg(json_build_object('step', e.step, 'status', e.status, 'at', e.at) ORDER BY e.step), '[]') FROM shipment_events e WHERE e.shipment_id = s.id) AS export_events`,
      ),
      db.raw(`(SELECT coalesce(array_agg(p.kind ORDER BY p.kind), '{}') FROM shipment_proofs p WHERE p.shipment_id = s.id) AS export_proof_kinds`),
    );
  if (afterId) query.andWhere('s.id', '>', afterId);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map(({ export_events, export_proof_kinds, ...row }) => ({
    row,
    events: export_events as ExportedMailing['events'],
    proofKinds: export_proof_kinds as string[],
  }));
}

/**
 * How many of the account's mailings are not final yet (paid and on their way): a closing account
 * is closed only once this is zero, so that no mailing is lost and none was paid for nothing.
 */
export async function countMailingsInFlight(db: Db, accountId: string): Promise<number> {
  const [{ n }] = await db('shipments')
    .where({ account_id: accountId })
    .whereNotIn('status', ['canceled', 'error', 'returned'])
    .andWhereRaw('step < last_step')
    .count({ n: '*' });
  return Number(n);
}

/** One mode's mailings of the month so far (Paris calendar month), in one environment. */
export interface MonthModeVolume {
  mode: Mode;
  test: boolean;
  count: number;
  amountCents: number;
}

/** The account's mailings created this calendar month (Europe/Paris), counted and summed by mode and environment: the home page's chart. */
export async function monthVolumeByMode(db: Db, accountId: string): Promise<MonthModeVolume[]> {
  const { rows } = (await db.raw(
    `SELECT mode, test, count(*)::int AS count, coalesce(sum(amount_cents), 0)::bigint AS cents
       FROM shipments
      WHERE account_id = ? AND created_at >= (date_trunc('month', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris')
      GROUP BY mode, test`,
    [accountId],
  )) as { rows: { mode: Mode; test: boolean; count: number; cents: string }[] };
  return rows.map((r) => ({ mode: r.mode, test: r.test, count: r.count, amountCents: Number(r.cents) }));
}
