import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import Joi from 'joi';
import getRawBody from 'raw-body';
import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { Mailer } from '../lib/mailer.js';
import { logger } from '../lib/logger.js';
import { decrypt, encrypt, safeEqualText } from '../lib/crypto.js';
import { createSession, deleteSession, findSession, setSessionFlash, type Session } from '../domain/developers/sessions.js';
import { confirmEmail, firstSandboxKey, requestPasswordReset, resetPassword, resetTokenValid, signIn, signUp } from '../domain/developers/users.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../domain/developers/passwords.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../domain/access/keys.js';
import { isScope, type KeyMode } from '../domain/access/scopes.js';
import { SCRIPT, STYLE } from './assets.js';
import { BASE, forgotPage, homePage, infoPage, keysPage, resetPage, signInPage, signUpPage } from './pages.js';

export interface WebServices {
  config: Config;
  db: Db;
  mailer: Mailer;
}

declare module 'koa' {
  interface DefaultState {
    session?: Session;
    form?: URLSearchParams;
  }
}

export const SESSION_COOKIE = 'svc_dashboard';
const FLASH_CONTEXT = 'dashboard-flash';

/** Strict: only our own script and style, no inline code, no framing, forms post to us only. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const emailSchema = Joi.string().trim().lowercase().email({ tlds: false }).max(254).required();
const passwordSchema = Joi.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH).required();

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

function page(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

function readCookie(ctx: Context, name: string): string | undefined {
  for (const part of (ctx.get('Cookie') || '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The developer space, a Koa app of its own mounted at /dashboard (api/server.ts): security headers,
 * no API keys, server-side sessions in Postgres, a synchronizer CSRF token on every form.
 */
export function createWebApp(services: WebServices): Koa {
  const { config, db, mailer } = services;
  const local = config.appEnv === 'local';
  const app = new Koa();
  app.proxy = config.trustProxy;
  app.silent = true;

  const setCookie = (ctx: Context, value: string, maxAgeSeconds: number): void => {
    const attributes = [`${SESSION_COOKIE}=${value}`, `Path=${BASE}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(local ? [] : ['Secure'])];
    ctx.append('Set-Cookie', attributes.join('; '));
  };

  /** The session, created (anonymous) when the page holds a form. */
  const ensureSession = async (ctx: Context): Promise<Session> => {
    if (ctx.state.session) return ctx.state.session;
    const session = await createSession(db, config.dashboard.sessionTtlMs);
    setCookie(ctx, session.id, Math.floor(config.dashboard.sessionTtlMs / 1000));
    ctx.state.session = session;
    return session;
  };

  /** Where emailed links and curl examples point: PUBLIC_URL; in local runs, this request's origin. */
  const publicUrl = (ctx: Context): string => {
    if (config.dashboard.publicUrl) return config.dashboard.publicUrl;
    if (local) return `${ctx.protocol}://${ctx.host}`;
    throw new Error('PUBLIC_URL must be set outside local runs (the developer space emails links)');
  };

  const takeFlash = async (session: Session): Promise<string | undefined> => {
    if (!session.flash) return undefined;
    await setSessionFlash(db, session.id, null);
    try {
      return decrypt(session.flash, config.secretKey, FLASH_CONTEXT);
    } catch {
      return undefined;
    }
  };

  const form = (ctx: Context, name: string): string => ctx.state.form?.get(name) ?? '';

  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined)
        page(ctx, 404, infoPage(ctx.state.session, 'Page introuvable', { kind: 'error', text: 'Cette page n’existe pas.' }, { href: BASE, text: 'Accueil' }));
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 413 || status === 400) {
        page(ctx, status, infoPage(undefined, 'Requête refusée', { kind: 'error', text: 'Le formulaire envoyé est illisible ou trop grand.' }));
        return;
      }
      logger.error({ err: error, method: ctx.method, path: ctx.path }, 'developer space request failed');
      page(ctx, 500, infoPage(undefined, 'Erreur', { kind: 'error', text: 'Une erreur est survenue. Réessayez dans un instant.' }));
    }
  });
  app.use(securityHeaders(config.appEnv === 'production'));
  // API keys are for the API: the developer space knows only its own sessions.
  app.use(async (ctx, next) => {
    if (ctx.get('Authorization')) {
      page(ctx, 401, infoPage(undefined, 'Accès refusé', { kind: 'error', text: 'L’espace développeur n’accepte pas de clé d’API ; connectez-vous.' }));
      return;
    }
    await next();
  });
  app.use(async (ctx, next) => {
    const id = readCookie(ctx, SESSION_COOKIE);
    if (id) ctx.state.session = await findSession(db, id);
    await next();
  });
  // Forms only (urlencoded, 16 KiB at most), and each must carry the session's CSRF token.
  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST') return next();
    if (!ctx.is('application/x-www-form-urlencoded')) {
      page(ctx, 415, infoPage(undefined, 'Requête refusée', { kind: 'error', text: 'Seuls les formulaires de ces pages sont acceptés.' }));
      return;
    }
    ctx.state.form = new URLSearchParams(await getRawBody(ctx.req, { limit: '16kb', encoding: 'utf8' }));
    const token = ctx.state.form.get('_csrf') ?? '';
    if (!ctx.state.session || !safeEqualText(token, ctx.state.session.csrfToken)) {
      page(
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
  const signedIn = async (ctx: Context, next: Next): Promise<void> => {
    if (!ctx.state.session?.user) return ctx.redirect(`${BASE}/connexion`);
    await next();
  };

  router.get('/static/app.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = SCRIPT;
  });
  router.get('/static/app.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = STYLE;
  });

  router.get('/inscription', async (ctx) => page(ctx, 200, signUpPage(await ensureSession(ctx))));
  router.post('/inscription', async (ctx) => {
    const session = ctx.state.session!;
    const email = emailSchema.validate(form(ctx, 'email'));
    const password = passwordSchema.validate(form(ctx, 'password'));
    if (email.error || password.error) {
      const text = email.error ? 'Adresse e-mail invalide.' : `Le mot de passe doit compter de ${PASSWORD_MIN_LENGTH} à ${PASSWORD_MAX_LENGTH} caractères.`;
      return page(ctx, 400, signUpPage(session, { kind: 'error', text }, form(ctx, 'email')));
    }
    const base = publicUrl(ctx);
    const result = await signUp(db, { email: email.value, password: password.value });
    if (result.kind === 'created') {
      await mailer.send({
        to: email.value,
        subject: 'Confirmez votre adresse e-mail',
        text: `Bonjour,\n\nPour confirmer votre adresse et activer votre compte, ouvrez ce lien (valable 48 heures) :\n\n${base}${BASE}/confirmation?token=${result.confirmToken}\n\nSi vous n’avez pas créé de compte, ignorez ce message.\n`,
      });
    } else {
      await mailer.send({
        to: email.value,
        subject: 'Vous avez déjà un compte',
        text: `Bonjour,\n\nQuelqu’un, vous peut-être, a voulu créer un compte avec cette adresse, qui en a déjà un.\n\nSe connecter : ${base}${BASE}/connexion\nMot de passe oublié : ${base}${BASE}/mot-de-passe-oublie\n\nSi ce n’est pas vous, ignorez ce message.\n`,
      });
    }
    // The same answer whether the email had an account or not.
    page(
      ctx,
      200,
      infoPage(session, 'Vérifiez votre boîte mail', {
        kind: 'notice',
        text: `Un message a été envoyé à ${email.value}. Ouvrez le lien qu’il contient pour continuer.`,
      }),
    );
  });

  router.get('/confirmation', async (ctx) => {
    const confirmed = await confirmEmail(db, String(ctx.query.token ?? ''));
    if (!confirmed)
      return page(
        ctx,
        400,
        infoPage(
          ctx.state.session,
          'Lien invalide',
          { kind: 'error', text: 'Ce lien est invalide, expiré ou déjà utilisé. Connectez-vous pour en recevoir un nouveau.' },
          { href: `${BASE}/connexion`, text: 'Se connecter' },
        ),
      );
    page(
      ctx,
      200,
      infoPage(
        ctx.state.session,
        'Adresse confirmée',
        { kind: 'notice', text: 'Votre adresse est confirmée. Vous pouvez vous connecter.' },
        { href: `${BASE}/connexion`, text: 'Se connecter' },
      ),
    );
  });

  router.get('/connexion', async (ctx) => {
    const session = await ensureSession(ctx);
    if (session.user) return ctx.redirect(BASE);
    page(ctx, 200, signInPage(session));
  });
  router.post('/connexion', async (ctx) => {
    const session = ctx.state.session!;
    const email = form(ctx, 'email').trim();
    const result = await signIn(db, { email, password: form(ctx, 'password'), address: ctx.ip });
    if (result.kind === 'throttled')
      return page(
        ctx,
        429,
        signInPage(session, { kind: 'error', text: 'Trop de tentatives. Réessayez dans 15 minutes, ou choisissez un nouveau mot de passe.' }, email),
      );
    if (result.kind === 'refused') return page(ctx, 401, signInPage(session, { kind: 'error', text: 'Adresse e-mail ou mot de passe incorrect.' }, email));
    if (result.kind === 'unconfirmed') {
      await mailer.send({
        to: email.toLowerCase(),
        subject: 'Confirmez votre adresse e-mail',
        text: `Bonjour,\n\nPour confirmer votre adresse et activer votre compte, ouvrez ce lien (valable 48 heures) :\n\n${publicUrl(ctx)}${BASE}/confirmation?token=${result.confirmToken}\n`,
      });
      return page(
        ctx,
        403,
        signInPage(session, { kind: 'error', text: 'Confirmez d’abord votre adresse : un nouveau lien vient de vous être envoyé.' }, email),
      );
    }
    // A new session at sign-in: an id known before (fixation) is worth nothing after.
    await deleteSession(db, session.id);
    const signed = await createSession(db, config.dashboard.sessionTtlMs, result.userId);
    setCookie(ctx, signed.id, Math.floor(config.dashboard.sessionTtlMs / 1000));
    const key = await firstSandboxKey(db, result.accountId);
    if (key) await setSessionFlash(db, signed.id, encrypt(key, config.secretKey, FLASH_CONTEXT));
    ctx.redirect(BASE);
  });

  router.post('/deconnexion', async (ctx) => {
    await deleteSession(db, ctx.state.session!.id);
    setCookie(ctx, '', 0);
    ctx.redirect(`${BASE}/connexion`);
  });

  router.get('/mot-de-passe-oublie', async (ctx) => page(ctx, 200, forgotPage(await ensureSession(ctx))));
  router.post('/mot-de-passe-oublie', async (ctx) => {
    const session = ctx.state.session!;
    const email = emailSchema.validate(form(ctx, 'email'));
    if (email.error) return page(ctx, 400, forgotPage(session, { kind: 'error', text: 'Adresse e-mail invalide.' }));
    const reset = await requestPasswordReset(db, email.value);
    if (reset) {
      await mailer.send({
        to: reset.email,
        subject: 'Choisir un nouveau mot de passe',
        text: `Bonjour,\n\nPour choisir un nouveau mot de passe, ouvrez ce lien (valable une heure) :\n\n${publicUrl(ctx)}${BASE}/nouveau-mot-de-passe?token=${reset.resetToken}\n\nSi vous n’avez rien demandé, ignorez ce message : votre mot de passe reste le même.\n`,
      });
    }
    page(
      ctx,
      200,
      infoPage(session, 'Vérifiez votre boîte mail', {
        kind: 'notice',
        text: `Si un compte existe pour ${email.value}, un lien pour choisir un nouveau mot de passe vient d’y être envoyé.`,
      }),
    );
  });

  /** A reset link that is unknown, expired or used: offer a new one. */
  const invalidResetLink = (ctx: Context, session: Session): void =>
    page(
      ctx,
      400,
      infoPage(
        session,
        'Lien invalide',
        { kind: 'error', text: 'Ce lien est invalide, expiré ou déjà utilisé.' },
        { href: `${BASE}/mot-de-passe-oublie`, text: 'Demander un nouveau lien' },
      ),
    );

  router.get('/nouveau-mot-de-passe', async (ctx) => {
    const session = await ensureSession(ctx);
    const token = String(ctx.query.token ?? '');
    if (!(await resetTokenValid(db, token))) return invalidResetLink(ctx, session);
    page(ctx, 200, resetPage(session, token));
  });
  router.post('/nouveau-mot-de-passe', async (ctx) => {
    const session = ctx.state.session!;
    const token = form(ctx, 'token');
    const password = passwordSchema.validate(form(ctx, 'password'));
    if (password.error)
      return page(
        ctx,
        400,
        resetPage(session, token, { kind: 'error', text: `Le mot de passe doit compter de ${PASSWORD_MIN_LENGTH} à ${PASSWORD_MAX_LENGTH} caractères.` }),
      );
    if (!(await resetPassword(db, token, password.value))) return invalidResetLink(ctx, session);
    page(
      ctx,
      200,
      infoPage(
        undefined,
        'Mot de passe changé',
        { kind: 'notice', text: 'Votre mot de passe est changé et vos sessions sont fermées. Connectez-vous.' },
        { href: `${BASE}/connexion`, text: 'Se connecter' },
      ),
    );
  });

  router.get('/', signedIn, async (ctx) => {
    const session = ctx.state.session!;
    const accountId = session.user!.accountId;
    const account = await db('accounts').where({ id: accountId }).first('live_enabled');
    const keys = await listApiKeys(db, accountId);
    page(
      ctx,
      200,
      homePage(session, {
        newKey: await takeFlash(session),
        apiUrl: publicUrl(ctx),
        liveEnabled: account.live_enabled,
        activeKeys: keys.filter((k) => !k.revokedAt).length,
      }),
    );
  });

  router.get('/cles', signedIn, async (ctx) => {
    const session = ctx.state.session!;
    page(ctx, 200, keysPage(session, { keys: await listApiKeys(db, session.user!.accountId), newKey: await takeFlash(session), apiUrl: publicUrl(ctx) }));
  });
  router.post('/cles', signedIn, async (ctx) => {
    const session = ctx.state.session!;
    const mode = form(ctx, 'mode');
    const scopes = ctx.state.form!.getAll('scopes').filter(isScope);
    if ((mode !== 'test' && mode !== 'live') || scopes.length === 0) {
      const keys = await listApiKeys(db, session.user!.accountId);
      return page(
        ctx,
        400,
        keysPage(session, { keys, newKey: undefined, apiUrl: publicUrl(ctx), m: { kind: 'error', text: 'Choisissez un mode et au moins un scope.' } }),
      );
    }
    // The same domain function as `admin key create`; shown once, through the session (sealed).
    const { key } = await createApiKey(db, session.user!.accountId, mode as KeyMode, scopes);
    await setSessionFlash(db, session.id, encrypt(key, config.secretKey, FLASH_CONTEXT));
    ctx.redirect(`${BASE}/cles`);
  });
  router.post('/cles/:id/revoquer', signedIn, async (ctx) => {
    const session = ctx.state.session!;
    // The same domain function as `admin key revoke`, limited to this account's keys.
    const revoked = await revokeApiKey(db, ctx.params.id ?? '', { accountId: session.user!.accountId });
    if (!revoked)
      return page(
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

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
