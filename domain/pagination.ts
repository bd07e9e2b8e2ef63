import type { Knex } from 'knex';
import { InvalidRequest } from './errors.js';
import { openToken, sealToken } from '../lib/crypto.js';

/** Position after the last item of a page: (createdAt, id), the order of every list. */
export interface Position {
  createdAt: string;
  id: string;
}

const invalidCursor = (): InvalidRequest =>
  new InvalidRequest('The cursor is not one this API gave; pass nextCursor exactly as received.', undefined, 'invalid_cursor');

/** Opaque to clients: encrypted and authenticated, so it can be neither read nor forged. */
/** `scope` (the list and its owner) is authenticated with the cursor, so it works for that list only. */
export function encodeCursor(position: Position, key: Buffer, scope: string): string {
  return sealToken([Date.parse(position.createdAt), position.id], key, `cursor:${scope}`);
}

export function decodeCursor(cursor: string, key: Buffer, scope: string): Position {
  const payload = openToken<[number, string]>(cursor, key, `cursor:${scope}`);
  if (!Array.isArray(payload) || !Number.isSafeInteger(payload[0]) || typeof payload[1] !== 'string' || !/^[0-9a-f-]{36}$/.test(payload[1]))
    throw invalidCursor();
  return { createdAt: new Date(payload[0]).toISOString(), id: payload[1] };
}

/**
 * Keyset pagination, most recent first: stable while items are added (new items sort before the
 * cursor, so a walk sees neither duplicates nor gaps).
 */
export function page<T extends { created_at: Date; id: string }>(
  rows: T[],
  limit: number,
  key: Buffer,
  scope: string,
): { rows: T[]; nextCursor: string | null; hasMore: boolean } {
  const hasMore = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { rows: shown, hasMore, nextCursor: hasMore && last ? encodeCursor({ createdAt: last.created_at.toISOString(), id: last.id }, key, scope) : null };
}

/**
 * A list query limited to one page, most recent first: after the cursor (400 invalid_cursor when
 * it is not one of this list's), ordered by (created_at, id), one row more than shown to know hasMore.
 */
export function keysetQuery(query: Knex.QueryBuilder, options: { limit: number; cursor?: string }, key: Buffer, scope: string): Knex.QueryBuilder {
  if (options.cursor !== undefined) {
    const after = decodeCursor(options.cursor, key, scope);
    query.andWhereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.createdAt, after.id]);
  }
  return query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(options.limit + 1);
}

/** One page of a list query (see keysetQuery). */
export async function keysetPage<T extends { created_at: Date; id: string }>(
  query: Knex.QueryBuilder,
  options: { limit: number; cursor?: string },
  key: Buffer,
  scope: string,
): Promise<{ rows: T[]; nextCursor: string | null; hasMore: boolean }> {
  const rows = (await keysetQuery(query, options, key, scope)) as T[];
  return page(rows, options.limit, key, scope);
}
