import type { Db } from '../../db/knex.js';
import { preparedQuery } from '../../db/knex.js';
import { logger } from '../../lib/logger.js';
import { decodeCursor, page } from '../pagination.js';

/**
 * The request log (issue 15): one row per API call made with a known key, shown to the account for
 * REQUEST_LOG_RETENTION_DAYS in the developer space. What is recorded: request id, key, account,
 * mode, method, the path as the access log writes it (no query string; a proof link's token
 * redacted), status, duration and time. Never a header, a body or a key.
 *
 * Never written on the request path: each API process keeps the rows in memory (RequestLogBuffer)
 * and inserts them in batches, one statement per batch.
 */
export const REQUEST_LOG_RETENTION_DAYS = 7;

/** Rows kept in memory at most; when full, the oldest are dropped (and counted in the log). */
export const REQUEST_LOG_CAPACITY = 20_000;
/** A batch is written when this many rows wait, or FLUSH_MS after the previous one. */
export const REQUEST_LOG_FLUSH_ROWS = 1_000;
export const REQUEST_LOG_FLUSH_MS = 1_000;

/** One multi-row INSERT: each column arrives as one array literal (9 parameters whatever the batch size). */
const INSERT = `INSERT INTO api_request_log (request_id, account_id, key_id, mode, method, path, status, duration_ms, at)
  SELECT r, a, k, m, me, p, s, d, to_timestamp(t / 1000.0)
  FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::smallint[], $8::real[], $9::float8[]) AS u(r, a, k, m, me, p, s, d, t)`;

/** An element of a Postgres array literal: quoted, with `"` and `\` escaped. */
const quoted = (text: string): string => (/["\\]/.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : `"${text}"`);

/**
 * A process's request log rows until they are written: a ring of columns (no object per request).
 * `add` is all a request pays; `flush` builds the batch's array literals and inserts them, one
 * batch at a time. A batch that fails is dropped and counted, as are rows pushed out of a full ring.
 */
export class RequestLogBuffer {
  private readonly requestIds: string[];
  private readonly accountIds: string[];
  private readonly keyIds: string[];
  private readonly modes: string[];
  private readonly methods: string[];
  private readonly paths: string[];
  private readonly statuses: Uint16Array;
  private readonly durations: Float64Array;
  private readonly times: Float64Array;
  private head = 0;
  private count = 0;
  private dropped = 0;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly capacity = REQUEST_LOG_CAPACITY,
    private readonly flushRows = REQUEST_LOG_FLUSH_ROWS,
  ) {
    this.requestIds = new Array<string>(capacity);
    this.accountIds = new Array<string>(capacity);
    this.keyIds = new Array<string>(capacity);
    this.modes = new Array<string>(capacity);
    this.methods = new Array<string>(capacity);
    this.paths = new Array<string>(capacity);
    this.statuses = new Uint16Array(capacity);
    this.durations = new Float64Array(capacity);
    this.times = new Float64Array(capacity);
  }

  /** Writes a batch every `flushMs` (and whenever flushRows wait). */
  start(flushMs = REQUEST_LOG_FLUSH_MS): void {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  /** Writes what is left (server close). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.writing;
    await this.flush();
  }

  /** Rows waiting to be written. */
  get pending(): number {
    return this.count;
  }

  add(requestId: string, accountId: string, keyId: string, mode: string, method: string, path: string, status: number, ms: number, at: number): void {
    let slot: number;
    if (this.count === this.capacity) {
      slot = this.head;
      this.head = (this.head + 1) % this.capacity;
      this.dropped++;
    } else {
      slot = (this.head + this.count) % this.capacity;
      this.count++;
    }
    this.requestIds[slot] = requestId;
    this.accountIds[slot] = accountId;
    this.keyIds[slot] = keyId;
    this.modes[slot] = mode;
    this.methods[slot] = method;
    this.paths[slot] = path;
    this.statuses[slot] = status;
    this.durations[slot] = ms;
    this.times[slot] = at;
    if (this.count >= this.flushRows && this.writing === undefined) void this.flush();
  }

  /** Writes the waiting rows as one INSERT; resolves when written (or dropped: never rejects). */
  flush(): Promise<void> {
    if (this.writing) return this.writing;
    if (this.dropped) {
      logger.warn({ dropped: this.dropped, capacity: this.capacity }, 'request log buffer full: oldest rows dropped');
      this.dropped = 0;
    }
    const n = this.count;
    if (n === 0) return Promise.resolve();
    let r = '',
      a = '',
      k = '',
      m = '',
      me = '',
      p = '',
      s = '',
      d = '',
      t = '';
    for (let i = 0; i < n; i++) {
      const j = (this.head + i) % this.capacity;
      const sep = i === 0 ? '' : ',';
      r += sep + this.requestIds[j];
      a += sep + this.accountIds[j];
      k += sep + this.keyIds[j];
      m += sep + this.modes[j];
      me += sep + quoted(this.methods[j]!);
      p += sep + quoted(this.paths[j]!);
      s += sep + this.statuses[j];
      d += sep + this.durations[j];
      t += sep + Math.round(this.times[j]!);
      // Let the strings go with the batch.
      this.paths[j] = this.requestIds[j] = '';
    }
    this.head = 0;
    this.count = 0;
    const values = [r, a, k, m, me, p, s, d, t].map((column) => `{${column}}`);
    this.writing = preparedQuery(this.db, 'request-log-insert', INSERT, values)
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ err: error, dropped: n }, 'request log batch not written: its rows are dropped'),
      )
      .finally(() => {
        this.writing = undefined;
      });
    return this.writing;
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

/**
 * One page of the account's request log of the last REQUEST_LOG_RETENTION_DAYS, newest first,
 * optionally for one of its keys and one status class. Keyset pagination on (at, request_id) with
 * the API's sealed cursors (a cursor works for this account's log only: InvalidRequest otherwise).
 *
 * The table's only B-tree is (key_id, at, request_id): each of the account's keys gives its newest
 * rows past the cursor (at most a page), and the page is the newest of those.
 */
export async function requestLogPage(
  db: Db,
  secretKey: Buffer,
  accountId: string,
  options: { limit: number; cursor?: string; keyId?: string; statusClass?: StatusClass },
): Promise<{ entries: RequestLogEntry[]; nextCursor: string | null }> {
  const scope = `request-log:${accountId}`;
  const inner: string[] = [];
  const innerValues: unknown[] = [];
  if (options.statusClass) {
    const low = Number(options.statusClass[0]) * 100;
    inner.push('AND l.status BETWEEN ? AND ?');
    innerValues.push(low, low + 99);
  }
  if (options.cursor) {
    const after = decodeCursor(options.cursor, secretKey, scope);
    inner.push('AND (l.at, l.request_id) < (?::timestamptz, ?::uuid)');
    innerValues.push(after.createdAt, after.id);
  }
  const keyFilter = options.keyId ? 'AND k.id = ?' : '';
  const { rows } = (await db.raw(
    `SELECT l.request_id AS id, l.at AS created_at, l.key_id, l.mode, l.method, l.path, l.status, l.duration_ms
     FROM api_keys k
     CROSS JOIN LATERAL (
       SELECT * FROM api_request_log l
       WHERE l.key_id = k.id AND l.account_id = k.account_id
         AND l.at > now() - interval '${REQUEST_LOG_RETENTION_DAYS} days' ${inner.join(' ')}
       ORDER BY l.at DESC, l.request_id DESC
       LIMIT ?
     ) l
     WHERE k.account_id = ? ${keyFilter}
     ORDER BY l.at DESC, l.request_id DESC
     LIMIT ?`,
    [...innerValues, options.limit + 1, accountId, ...(options.keyId ? [options.keyId] : []), options.limit + 1] as never[],
  )) as {
    rows: {
      id: string;
      created_at: Date;
      key_id: string;
      mode: 'test' | 'live';
      method: string;
      path: string;
      status: number;
      duration_ms: number;
    }[];
  };
  const { rows: shown, nextCursor } = page(rows, options.limit, secretKey, scope);
  return {
    entries: shown.map((row) => ({
      requestId: row.id,
      keyId: row.key_id,
      mode: row.mode,
      method: row.method,
      path: row.path,
      status: row.status,
      durationMs: row.duration_ms,
      at: row.created_at,
    })),
    nextCursor,
  };
}

/** Rows older than REQUEST_LOG_RETENTION_DAYS go (maintenance schedule): the number deleted. */
export async function purgeRequestLog(db: Db): Promise<number> {
  return db('api_request_log')
    .where('at', '<', db.raw(`now() - interval '${REQUEST_LOG_RETENTION_DAYS} days'`))
    .delete();
}
