import type { Context, Next } from 'koa';
import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { Mailer } from '../lib/mailer.js';
import type { Deps } from '../domain/deps.js';
import { decrypt, encrypt } from '../lib/crypto.js';
import { createSession, setSessionFlash, type Session } from '../domain/developers/sessions.js';
import { BASE } from './pages/layout.js';
import type { Actor } from '../domain/access/audit.js';

export interface WebServices {
  config: Config;
  db: Db;
  mailer: Mailer;
  /** The domain's dependencies (database, config, workflows), as the API's routes get them. */
  domain: Deps;
}

export const SESSION_COOKIE = 'svc_dashboard';
const FLASH_CONTEXT = 'dashboard-flash';

/**
 * What every routes module of the developer space shares. Routes reach the domain's dependencies
 * one way, as the API's routes do: `kit.deps` (the same Deps as `deps(ctx)` in api/).
 */
export interface WebKit {
  /** The domain's dependencies: database, configuration, workflows. */
  deps: Deps;
  mailer: Mailer;
  local: boolean;
  /** Answers an HTML page. */
  page(ctx: Context, status: number, body: string): void;
  /** A field of the posted form ('' when absent). */
  form(ctx: Context, name: string): string;
  setCookie(ctx: Context, value: string, maxAgeSeconds: number): void;
  /** The session, created (anonymous) when the page holds a form. */
  ensureSession(ctx: Context): Promise<Session>;
  /** Where emailed links and curl examples point: PUBLIC_URL; in local runs, this request's origin. */
  publicUrl(ctx: Context): string;
  /** A secret for the next page only (a new key, a webhook secret), sealed in the session. */
  putFlash(session: Session, secret: string): Promise<void>;
  takeFlash(session: Session): Promise<string | undefined>;
  /** Route guard: a signed-in user, else the sign-in page. */
  signedIn(ctx: Context, next: Next): Promise<void>;
  /** The signed-in developer and their address, as the audit log records them. */
  actor(ctx: Context): Actor;
}

export function createKit(services: WebServices): WebKit {
  const { config, db } = services;
  const local = config.appEnv === 'local';
  const setCookie = (ctx: Context, value: string, maxAgeSeconds: number): void => {
    const attributes = [`${SESSION_COOKIE}=${value}`, `Path=${BASE}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(local ? [] : ['Secure'])];
    ctx.append('Set-Cookie', attributes.join('; '));
  };
  return {
    deps: services.domain,
    mailer: services.mailer,
    local,
    page(ctx, status, body) {
      ctx.status = status;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = body;
    },
    form: (ctx, name) => ctx.state.form?.get(name) ?? '',
    setCookie,
    async ensureSession(ctx) {
      if (ctx.state.session) return ctx.state.session;
      const session = await createSession(db, config.dashboard.sessionTtlMs);
      setCookie(ctx, session.id, Math.floor(config.dashboard.sessionTtlMs / 1000));
      ctx.state.session = session;
      return session;
    },
    publicUrl(ctx) {
      if (config.dashboard.publicUrl) return config.dashboard.publicUrl;
      if (local) return `${ctx.protocol}://${ctx.host}`;
      throw new Error('PUBLIC_URL must be set outside local runs (the developer space emails links)');
    },
    putFlash: (session, secret) => setSessionFlash(db, session.id, encrypt(secret, config.secretKey, FLASH_CONTEXT)),
    async takeFlash(session) {
      if (!session.flash) return undefined;
      await setSessionFlash(db, session.id, null);
      try {
        return decrypt(session.flash, config.secretKey, FLASH_CONTEXT);
      } catch {
        return undefined;
      }
    },
    async signedIn(ctx, next) {
      if (!ctx.state.session?.user) return ctx.redirect(`${BASE}/connexion`);
      await next();
    },
    actor(ctx) {
      const user = ctx.state.session!.user!;
      return { kind: 'developer', userId: user.id, email: user.email, address: ctx.ip };
    },
  };
}
