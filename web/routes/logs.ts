import type Router from '@koa/router';
import { InvalidRequest } from '../../domain/errors.js';
import { listApiKeys } from '../../domain/access/keys.js';
import { auditPage as loadAuditPage } from '../../domain/access/audit.js';
import { requestLogPage, STATUS_CLASSES, type StatusClass } from '../../domain/access/request-log.js';
import type { WebKit } from '../kit.js';
import { queryText } from '../forms.js';
import { auditPage, journalPage, type JournalFilters } from '../pages/logs.js';

/** Rows per page of both logs. */
const PER_PAGE = 50;

const CURSOR = /^[A-Za-z0-9._-]{1,300}$/;
const staleLink = 'Ce lien de page n’est plus valide : revenez à la première page du journal.';

/** The request log of the account's API calls (`/journal`), read-only. */
export function requestLogRoutes(router: Router, kit: WebKit): void {
  const { db, config } = kit.deps;
  router.get('/journal', kit.allowed('logs'), async (ctx) => {
    const session = ctx.state.session!;
    const accountId = session.user!.accountId;
    const keys = await listApiKeys(db, accountId);
    const filters: JournalFilters = { key: queryText(ctx, 'cle'), status: queryText(ctx, 'statut') };
    const cursor = queryText(ctx, 'apres') || undefined;
    const refuse = (text: string): void =>
      kit.page(ctx, 400, journalPage(session, { filters, keys, entries: [], nextCursor: null, m: { kind: 'error', text } }));
    // Only this account's keys can be chosen; anything else is a bad link, not a query.
    if (filters.key && !keys.some((k) => k.id === filters.key)) return refuse('Cette clé n’est pas une clé de ce compte.');
    if (filters.status && !(STATUS_CLASSES as readonly string[]).includes(filters.status)) return refuse('Statut HTTP : choisissez une des valeurs proposées.');
    if (cursor !== undefined && !CURSOR.test(cursor)) return refuse(staleLink);
    try {
      const { entries, nextCursor } = await requestLogPage(db, config.secretKey, accountId, {
        limit: PER_PAGE,
        cursor,
        keyId: filters.key || undefined,
        statusClass: (filters.status || undefined) as StatusClass | undefined,
      });
      kit.page(ctx, 200, journalPage(session, { filters, keys, entries, nextCursor }));
    } catch (failure) {
      if (failure instanceof InvalidRequest) return refuse(staleLink);
      throw failure;
    }
  });
}

/** The audit log of the account (`/audit`), read-only. */
export function auditRoutes(router: Router, kit: WebKit): void {
  const { db, config } = kit.deps;
  router.get('/audit', kit.allowed('audit'), async (ctx) => {
    const session = ctx.state.session!;
    const cursor = queryText(ctx, 'apres') || undefined;
    const refuse = (): void => kit.page(ctx, 400, auditPage(session, { entries: [], nextCursor: null, m: { kind: 'error', text: staleLink } }));
    if (cursor !== undefined && !CURSOR.test(cursor)) return refuse();
    try {
      const { entries, nextCursor } = await loadAuditPage(db, config.secretKey, session.user!.accountId, { limit: PER_PAGE, cursor });
      kit.page(ctx, 200, auditPage(session, { entries, nextCursor }));
    } catch (failure) {
      if (failure instanceof InvalidRequest) return refuse();
      throw failure;
    }
  });
}
