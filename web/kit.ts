import type { Context, Next } from 'koa';
import type { Config } from '../lib/config.js';
import type { Db } from '../db/knex.js';
import type { Mailer } from '../lib/mailer.js';
import type { Deps } from '../domain/deps.js';
import { decrypt, encrypt } from '../lib/crypto.js';
import { createSession, setSessionFlash, type Session } from '../domain/developers/sessions.js';
import { BASE, infoPage, markCurrentPage } from './pages/layout.js';
import type { Actor } from '../domain/access/audit.js';
import { budgets, reserve } from '../domain/developers/throttle.js';
import { enqueueEmail, type OutgoingEmail } from '../domain/developers/outbox.js';
import type { OutboxSender } from './outbox-sender.js';
import { logger } from '../lib/logger.js';
import { mayOpen, ROLE_LABELS, type PageFamily } from '../domain/developers/roles.js';

export interface WebServices {
  config: Config;
  db: Db;
  mailer: Mailer;
  /** The domain's dependencies (database, config, workflows), as the API's routes get them. */
  domain: Deps;
  /** Sends the queued emails. */
  outbox: OutboxSender;
  /** The public origin: PUBLIC_URL, or in local runs http://localhost:<the port listened on>. */
  publicUrl: () => string;
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
  /**
   * Where emailed links and curl examples point: from the configuration only, never from the
   * request (a forged Host header would put its own site in a reset link sent to the real user).
   */
  publicUrl(): string;
  /**
   * Queues an email, sent after the answer, within the recipient's and the client address's email
   * budgets (over them it is dropped and logged, the answer unchanged). With `when` false the same
   * work is done and nothing is queued.
   */
  queueEmail(ctx: Context, email: OutgoingEmail, when?: boolean): Promise<void>;
  /** A secret for the next page only (a new key, a webhook secret), sealed in the session. */
  putFlash(session: Session, secret: string): Promise<void>;
  takeFlash(session: Session): Promise<string | undefined>;
  /** Route guard: a signed-in user, else the sign-in page. */
  signedIn(ctx: Context, next: Next): Promise<void>;
  /**
   * Route guard of a page family: a signed-in user whose role opens it (domain/developers/roles.ts),
   * else the sign-in page, or 403 with a French page.
   */
  allowed(family: PageFamily): (ctx: Context, next: Next) => Promise<void>;
  /** The signed-in developer and their address, as the audit log records them. */
  actor(ctx: Context): Actor;
}

/** Answers a PDF preview, the one kind of response the developer space's own pages may frame (and no one else). */
export function answerFramedPdf(ctx: Context, filename: string, pdf: Uint8Array): void {
  ctx.type = 'application/pdf';
  ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'self'");
  ctx.set('X-Frame-Options', 'SAMEORIGIN');
  ctx.set('Content-Disposition', `inline; filename="${filename}"`);
  ctx.body = Buffer.from(pdf);
}

export function createKit(services: WebServices): WebKit {
  const { config, db } = services;
  const local = config.appEnv === 'local';
  const setCookie = (ctx: Context, value: string, maxAgeSeconds: number): void => {
    const attributes = [`${SESSION_COOKIE}=${value}`, `Path=${BASE}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(local ? [] : ['Secure'])];
    ctx.append('Set-Cookie', attributes.join('; '));
  };
  const page = (ctx: Context, status: number, body: string): void => {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = markCurrentPage(body, ctx.path);
  };
  return {
    deps: services.domain,
    mailer: services.mailer,
    local,
    page,
    form: (ctx, name) => ctx.state.form?.get(name) ?? '',
    setCookie,
    async ensureSession(ctx) {
      if (ctx.state.session) return ctx.state.session;
      const session = await createSession(db, config.dashboard.sessionTtlMs);
      setCookie(ctx, session.id, Math.floor(config.dashboard.sessionTtlMs / 1000));
      ctx.state.session = session;
      return session;
    },
    publicUrl: services.publicUrl,
    async queueEmail(ctx, email, when = true) {
      if (!(await reserve(db, budgets.email(ctx.ip, email.to)))) {
        if (when) logger.warn({ subject: email.subject, address: ctx.ip }, 'developer space: email budget spent, email not sent');
        return;
      }
      const id = await enqueueEmail(db, config.secretKey, email, when);
      // Sent once the answer is out: its timing tells nothing, and a slow mail server delays no page.
      if (id) ctx.res.once('finish', () => services.outbox.sendSoon([id]));
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
    allowed(family) {
      return async (ctx, next) => {
        const user = ctx.state.session?.user;
        if (!user) return ctx.redirect(`${BASE}/connexion`);
        if (!mayOpen(user.role, family))
          return page(
            ctx,
            403,
            infoPage(
              ctx.state.session,
              'Accès refusé',
              {
                kind: 'error',
                text: `Votre rôle dans ce compte (${ROLE_LABELS[user.role]}) ne donne pas accès à cette page. Demandez à un propriétaire du compte.`,
              },
              { href: BASE, text: 'Accueil' },
            ),
          );
        await next();
      };
    },
    actor(ctx) {
      const user = ctx.state.session!.user!;
      return { kind: 'developer', userId: user.id, email: user.email, address: ctx.ip };
    },
  };
}
