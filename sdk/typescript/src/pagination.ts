/** A page of a cursor list (`GET /v1/mailings`, `GET /v1/mailing-batches`, `GET /v1/requests`). */
export interface Page<T> {
  data: T[];
  nextCursor?: string | null;
  hasMore: boolean;
}

/**
 * Every item of a cursor list, page after page, most recent first: `fetchPage(cursor)` asks for
 * one page (cursor undefined for the first) and the iterator passes each `nextCursor` on while
 * `hasMore` is true. Stop early with `break`.
 *
 *     for await (const mailing of paginate((cursor) => listMailings({ client, query: { cursor, limit: 100 } })))
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<{ data: Page<T> }>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const { data: page } = await fetchPage(cursor);
    yield* page.data;
    if (!page.hasMore || !page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
