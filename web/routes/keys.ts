import { isLiveEnabled } from '../../domain/access/accounts.js';
import type Router from '@koa/router';
import { createApiKey, listApiKeys, revealTestKey, revokeApiKey } from '../../domain/access/keys.js';
import { isScope, type KeyMode } from '../../domain/access/scopes.js';
import type { WebKit } from '../kit.js';
import { BASE, infoPage } from '../pages/layout.js';
import { homePage, keysPage } from '../pages/keys.js';
import { homeOverview } from '../pages/home-charts.js';
import type { Html } from '../html.js';
import type { Db } from '../../db/knex.js';
import { mayOpen, type Role } from '../../domain/developers/roles.js';
import { monthVolumeByMode } from '../../domain/mailings/listing.js';
import { balanceHistory, currentBalance } from '../../domain/billing/ledger.js';
import { endpointOutcomes } from '../../domain/webhooks/deliveries.js';

/** The home page's charts, each read only when the user's role opens its pages. */
async function overviewOf(db: Db, accountId: string, role: Role): Promise<Html> {
  const [month, balance, currentBalanceCents, endpoints] = await Promise.all([
    mayOpen(role, 'mailings') ? monthVolumeByMode(db, accountId) : null,
    mayOpen(role, 'balance') ? balanceHistory(db, accountId) : null,
    mayOpen(role, 'balance') ? currentBalance(db, accountId) : null,
    mayOpen(role, 'webhooks') ? endpointOutcomes(db, accountId) : null,
  ]);
  return homeOverview({ month, balance, currentBalanceCents, endpoints });
}

/** The home page (production status, first sandbox key) and the API keys. */
export function keyRoutes(router: Router, kit: WebKit): void {
  const { db } = kit.deps;
  router.get('/', kit.allowed('home'), async (ctx) => {
    const session = ctx.state.session!;
    const accountId = session.user!.accountId;
    const liveEnabled = await isLiveEnabled(db, accountId);
    const keys = await listApiKeys(db, accountId);
    kit.page(
      ctx,
      200,
      homePage(session, {
        newKey: await kit.takeFlash(session),
        apiUrl: kit.publicUrl(),
        liveEnabled,
        activeKeys: keys.filter((k) => !k.revokedAt).length,
        overview: await overviewOf(db, session.user!.accountId, session.user!.role),
      }),
    );
  });

  router.get('/cles', kit.allowed('keys'), async (ctx) => {
    const session = ctx.state.session!;
    kit.page(
      ctx,
      200,
      keysPage(session, { keys: await listApiKeys(db, session.user!.accountId), newKey: await kit.takeFlash(session), apiUrl: kit.publicUrl() }),
    );
  });
  router.post('/cles', kit.allowed('keys'), async (ctx) => {
    const session = ctx.state.session!;
    const mode = kit.form(ctx, 'mode');
    const scopes = ctx.state.form!.getAll('scopes').filter(isScope);
    if ((mode !== 'test' && mode !== 'live') || scopes.length === 0) {
      const keys = await listApiKeys(db, session.user!.accountId);
      return kit.page(
        ctx,
        400,
        keysPage(session, { keys, newKey: undefined, apiUrl: kit.publicUrl(), m: { kind: 'error', text: 'Choisissez un mode et au moins un scope.' } }),
      );
    }
    // The same domain function as `admin key create`; shown once, through the session (sealed).
    const { key } = await createApiKey(db, session.user!.accountId, mode as KeyMode, scopes, kit.actor(ctx), kit.deps.config.secretKey);
    await kit.putFlash(session, key);
    ctx.redirect(`${BASE}/cles`);
  });
  // A test key again (a POST: a secret is shown, the form carries the CSRF token); live keys never.
  router.post('/cles/:id/afficher', kit.allowed('keys'), async (ctx) => {
    const session = ctx.state.session!;
    const accountId = session.user!.accountId;
    const revealed = await revealTestKey(db, accountId, ctx.params.id ?? '', kit.deps.config.secretKey, kit.actor(ctx));
    if (!revealed)
      return kit.page(
        ctx,
        404,
        infoPage(session, 'Clé introuvable', { kind: 'error', text: 'Aucune clé de test de ce compte ne peut être affichée sous cet identifiant.' }),
      );
    kit.page(ctx, 200, keysPage(session, { keys: await listApiKeys(db, accountId), newKey: undefined, revealed, apiUrl: kit.publicUrl() }));
  });
  router.post('/cles/:id/revoquer', kit.allowed('keys'), async (ctx) => {
    const session = ctx.state.session!;
    // The same domain function as `admin key revoke`, limited to this account's keys.
    const revoked = await revokeApiKey(db, ctx.params.id ?? '', { accountId: session.user!.accountId }, kit.actor(ctx));
    if (!revoked)
      return kit.page(
        ctx,
        404,
        infoPage(
          session,
          'Clé introuvable',
          { kind: 'error', text: 'Aucune clé de ce compte ne porte cet identifiant.' },
          { href: `${BASE}/cles`, text: 'Clés d’API' },
        ),
      );
    ctx.redirect(`${BASE}/cles`);
  });
}
