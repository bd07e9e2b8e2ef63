import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import getRawBody from 'raw-body';
import { logger } from '../lib/logger.js';
import { safeEqualText } from '../lib/crypto.js';
import { findSession, type Session } from '../domain/developers/sessions.js';
import { SCRIPT, STYLE } from './assets.js';
import { createKit, SESSION_COOKIE, type WebServices } from './kit.js';
import { BASE, infoPage } from './pages/layout.js';
import { accountRoutes } from './routes/account.js';
import { keyRoutes } from './routes/keys.js';
import { webhookRoutes } from './routes/webhooks.js';
import { productionRoutes } from './routes/production.js';
import { mailingRoutes } from './routes/mailings.js';
import { SEND_FORM_LIMIT, sendRoutes } from './routes/send.js';
import { batchRoutes } from './routes/batches.js';
import { requestRoutes } from './routes/requests.js';
import { billingRoutes } from './routes/billing.js';
import { auditRoutes, requestLogRoutes } from './routes/logs.js';
import { settingsRoutes } from './routes/settings.js';
import { teamRoutes } from './routes/team.js';
import { privacyRoutes } from './routes/privacy.js';
import { accountDataRoutes } from './routes/account-data.js';
import { senderIdentityRoutes } from './routes/sender-identity.js';
import { trustProxies } from '../lib/net/proxies.js';

export { SESSION_COOKIE, type WebServices } from './kit.js';

declare module 'koa' {
  interface DefaultState {
    session?: Session;
    form?: URLSearchParams;
  }
}

/** Strict: only our own script and style, no inline code, no framing by others, forms post to us only. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  // The mailings page and the review of a letter to send frame their own PDF previews (web/routes/mailings.ts, send.ts), nothing else.
  "frame-src 'self'",
  // A running batch's page reads itself again (web/assets.ts), from our own origin only.
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function securityHeaders(production: boolean) {
  return async function headers(ctx: Context, next: Next): Promise<void> {
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    // Reset links carry their token in the address: never sent on to another site.
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    ctx.set('Cache-Control', 'no-store');
    if (production) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    await next();
  };
}

function readCookie(ctx: Context, name: string): string | undefined {
  for (const part of (ctx.get('Cookie') || '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The forms that may be 2 MB for a signed-in session: a letter with its PDF, a batch with its CSV file. */
const LARGE_FORMS = ['/envois/nouveau', '/envois/lots'];

/**
 * The developer space, a Koa app of its own mounted at /dashboard (server/server.ts): security headers,
 * no API keys, server-side sessions in Postgres, a synchronizer CSRF token on every form.
 * Each page family is a routes module (web/routes/) rendering pages from web/pages/.
 */
export function createWebApp(services: WebServices): Koa {
  const kit = createKit(services);
  const { config, db } = kit.deps;
  const app = new Koa();
  trustProxies(app, config.trustedProxyHops);
  app.silent = true;

  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        kit.page(
          ctx,
          404,
          infoPage(ctx.state.session, 'Page introuvable', { kind: 'error', text: 'Cette page n’existe pas.' }, { href: BASE, text: 'Accueil' }),
        );
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 413 || status === 400) {
        kit.page(ctx, status, infoPage(undefined, 'Requête refusée', { kind: 'error', text: 'Le formulaire envoyé est illisible ou trop grand.' }));
        return;
      }
      logger.error({ err: error, method: ctx.method, path: ctx.path }, 'developer space request failed');
      kit.page(ctx, 500, infoPage(undefined, 'Erreur', { kind: 'error', text: 'Une erreur est survenue. Réessayez dans un instant.' }));
    }
  });
  app.use(securityHeaders(config.appEnv === 'production'));
  // API keys are for the API: the developer space knows only its own sessions.
  app.use(async (ctx, next) => {
    if (ctx.get('Authorization')) {
      kit.page(ctx, 401, infoPage(undefined, 'Accès refusé', { kind: 'error', text: 'L’espace développeur n’accepte pas de clé d’API ; connectez-vous.' }));
      return;
    }
    await next();
  });
  app.use(async (ctx, next) => {
    const id = readCookie(ctx, SESSION_COOKIE);
    if (id) ctx.state.session = await findSession(db, id);
    await next();
  });
  // Forms only (urlencoded, 16 KiB at most; 2 MB for a letter's PDF or a batch's CSV), and each must carry the session's CSRF token.
  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST') return next();
    if (!ctx.is('application/x-www-form-urlencoded')) {
      kit.page(ctx, 415, infoPage(undefined, 'Requête refusée', { kind: 'error', text: 'Seuls les formulaires de ces pages sont acceptés.' }));
      return;
    }
    // Only a signed-in session may post the large forms (a letter's PDF, a batch's CSV): an anonymous one is read as small, and refused.
    const large = ctx.state.session?.user && LARGE_FORMS.some((path) => ctx.path.startsWith(`${BASE}${path}`));
    const limit = large ? SEND_FORM_LIMIT : '16kb';
    ctx.state.form = new URLSearchParams(await getRawBody(ctx.req, { limit, encoding: 'utf8' }));
    const token = ctx.state.form.get('_csrf') ?? '';
    if (!ctx.state.session || !safeEqualText(token, ctx.state.session.csrfToken)) {
      kit.page(
        ctx,
        403,
        infoPage(undefined, 'Formulaire expiré', {
          kind: 'error',
          text: 'Ce formulaire a expiré ou ne vient pas de cette page. Rechargez la page et réessayez.',
        }),
      );
      return;
    }
    return next();
  });

  const router = new Router({ prefix: BASE });
  router.get('/static/app.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = SCRIPT;
  });
  router.get('/static/app.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = STYLE;
  });
  accountRoutes(router, kit);
  keyRoutes(router, kit);
  webhookRoutes(router, kit);
  productionRoutes(router, kit);
  sendRoutes(router, kit);
  mailingRoutes(router, kit);
  batchRoutes(router, kit);
  requestRoutes(router, kit);
  billingRoutes(router, kit);
  requestLogRoutes(router, kit);
  auditRoutes(router, kit);
  settingsRoutes(router, kit);
  teamRoutes(router, kit);
  privacyRoutes(router, kit);
  accountDataRoutes(router, kit);
  senderIdentityRoutes(router, kit);

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
