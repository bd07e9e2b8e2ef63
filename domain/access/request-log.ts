import type { Db } from '../../db/knex.js';
import { decodeCursor, encodeCursor } from '../pagination.js';

/**
 * The request log (issue 15): every API call made with a known key, shown to the account for
 * REQUEST_LOG_RETENTION_DAYS in the developer space. What is recorded: request id, key, account,
 * mode, method, the path as the access log writes it (no query string; a proof link's token
 * redacted), status, duration and time. Never a header, a body or a key.
 *
 * Never written on the request path: each API process keeps the rows in memory
 * (api/request-log-buffer.ts) and inserts them in batches (insertRequestLogBatches), one statement
 * per batch, one table row per key of the batch (its calls as lines of one uncompressed bytea):
 * Postgres stores and indexes a batch, not each call.
 */
export const REQUEST_LOG_RETENTION_DAYS = 7;
const RETENTION_MS = REQUEST_LOG_RETENTION_DAYS * 24 * 3_600_000;

/** Keys per INSERT statement (7 parameters each: far below Postgres's 65,535). */
const KEYS_PER_STATEMENT = 1_000;

/**
 * One row of api_request_log: the calls of one key in a batch (see the migration). `lines`, one call
 * a line (newline-separated, latin1), each of request id, time (ms since the epoch), method, status,
 * duration (ms, one decimal) and path, tab-separated: what requestLogPage reads.
 */
export interface RequestLogBatch {
  accountId: string;
  keyId: string;
  mode: string;
  /** Times of its first and last call (ms since the epoch). */
  first: number;
  last: number;
  callCount: number;
  lines: Buffer;
}

/** Writes the batches, KEYS_PER_STATEMENT of them per INSERT. */
export async function insertRequestLogBatches(db: Db, batches: RequestLogBatch[]): Promise<void> {
  for (let start = 0; start < batches.length; start += KEYS_PER_STATEMENT) {
    const slice = batches.slice(start, start + KEYS_PER_STATEMENT);
    const tuple = '(?::uuid, ?::uuid, ?, to_timestamp(?::float8 / 1000), to_timestamp(?::float8 / 1000), ?::int, ?)';
    const values = slice.flatMap((b) => [b.accountId, b.keyId, b.mode, b.first, b.last, b.callCount, b.lines]);
    await db.raw(
      `INSERT INTO api_request_log (account_id, key_id, mode, first_at, last_at, call_count, calls) VALUES ${slice.map(() => tuple).join(', ')}`,
      values,
    );
  }
}

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';
export const STATUS_CLASSES: readonly StatusClass[] = ['2xx', '3xx', '4xx', '5xx'];

export interface RequestLogEntry {
  requestId: string;
  keyId: string;
  mode: 'test' | 'live';
  method: string;
  path: string;
  status: number;
  durationMs: number;
  at: Date;
}

/** Batches read at a time by the page, and at most per page (a filter that matches little ends the page early). */
const BATCHES_PER_READ = 8;
const MAX_BATCHES_PER_PAGE = 200;
/** Above every version-4 uuid: a cursor "at this millisecond, before any call of it not yet shown". */
const AFTER_ALL_IDS = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

const newerFirst = (x: RequestLogEntry, y: RequestLogEntry): number =>
  y.at.getTime() - x.at.getTime() || (y.requestId > x.requestId ? 1 : y.requestId < x.requestId ? -1 : 0);

/**
 * One page of the account's request log of the last REQUEST_LOG_RETENTION_DAYS, newest first,
 * optionally for one of its keys and one status class, with the API's sealed cursors (a cursor
 * works for this account's log only: InvalidRequest otherwise) on (time, request id).
 *
 * The account's batches are read newest first by their last call (`last_at`), a few at a time, until
 * the page's calls are known to be the newest: a batch not read yet ends no later than the last one
 * read. A page that reads MAX_BATCHES_PER_PAGE batches (a filter matching few calls) ends early with
 * what is certain so far, and its cursor continues from there.
 */
export async function requestLogPage(
  db: Db,
  secretKey: Buffer,
  accountId: string,
  options: { limit: number; cursor?: string; keyId?: string; statusClass?: StatusClass; maxBatches?: number },
): Promise<{ entries: RequestLogEntry[]; nextCursor: string | null }> {
  const scope = `request-log:${accountId}`;
  const maxBatches = options.maxBatches ?? MAX_BATCHES_PER_PAGE;
  const after = options.cursor ? decodeCursor(options.cursor, secretKey, scope) : undefined;
  const afterMs = after ? Date.parse(after.createdAt) : Infinity;
  const sinceMs = Date.now() - RETENTION_MS;
  const low = options.statusClass ? Number(options.statusClass[0]) * 100 : 0;
  const high = options.statusClass ? low + 99 : 999;
  const keyIds = options.keyId ? [options.keyId] : ((await db('api_keys').where({ account_id: accountId }).pluck('id')) as string[]);
  const found: RequestLogEntry[] = [];
  let boundary: { lastAt: Date; id: string } | undefined;
  let read = 0;
  let complete = false;
  let oldestEnd = Infinity;
  while (keyIds.length) {
    const query = db('api_request_log').whereIn('key_id', keyIds).where({ account_id: accountId }).where('last_at', '>', new Date(sinceMs));
    if (after) void query.where('first_at', '<=', new Date(afterMs));
    if (boundary) void query.whereRaw('(last_at, id) < (?, ?::uuid)', [boundary.lastAt, boundary.id]);
    const batches = (await query
      .orderBy([
        { column: 'last_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(BATCHES_PER_READ)
      .select('id', 'key_id', 'mode', 'last_at', 'calls')) as { id: string; key_id: string; mode: 'test' | 'live'; last_at: Date; calls: Buffer }[];
    for (const batch of batches) {
      for (const line of batch.calls.toString('latin1').split('\n')) {
        const [requestId = '', atText, method = '', statusText, durationText, path = ''] = line.split('\t');
        const at = Number(atText);
        const status = Number(statusText);
        if (at <= sinceMs || status < low || status > high) continue;
        if (at > afterMs || (at === afterMs && requestId >= after!.id)) continue;
        found.push({ requestId, keyId: batch.key_id, mode: batch.mode, method, path, status, durationMs: Number(durationText), at: new Date(at) });
      }
    }
    read += batches.length;
    if (batches.length < BATCHES_PER_READ) {
      complete = true;
      break;
    }
    const last = batches[batches.length - 1]!;
    boundary = { lastAt: last.last_at, id: last.id };
    oldestEnd = last.last_at.getTime();
    found.sort(newerFirst);
    // Enough calls newer than any batch not read yet.
    if (found.length > options.limit && found[options.limit]!.at.getTime() > oldestEnd) {
      complete = true;
      break;
    }
    if (read >= maxBatches) break;
  }
  found.sort(newerFirst);
  const certain = complete ? found : found.filter((entry) => entry.at.getTime() > oldestEnd);
  const entries = certain.slice(0, options.limit);
  const last = entries[entries.length - 1];
  let nextCursor: string | null = null;
  if (certain.length > options.limit && last) nextCursor = encodeCursor({ createdAt: last.at.toISOString(), id: last.requestId }, secretKey, scope);
  else if (!complete) nextCursor = encodeCursor({ createdAt: new Date(oldestEnd).toISOString(), id: AFTER_ALL_IDS }, secretKey, scope);
  return { entries, nextCursor };
}

/** Batches whose last call is older than REQUEST_LOG_RETENTION_DAYS go (maintenance schedule): the number of calls deleted. */
export async function purgeRequestLog(db: Db): Promise<number> {
  const { rows } = (await db.raw(
    `WITH gone AS (DELETE FROM api_request_log WHERE last_at < now() - interval '${REQUEST_LOG_RETENTION_DAYS} days' RETURNING call_count AS calls)
     SELECT coalesce(sum(calls), 0)::int AS calls FROM gone`,
  )) as { rows: { calls: number }[] };
  return rows[0]!.calls;
}
