import type Router from '@koa/router';
import type { Context } from 'koa';
import Joi from 'joi';
import { deleteSession, type Session } from '../../domain/developers/sessions.js';
import { signInWithCode, signInWithPassword, type SignedIn } from '../../domain/developers/sign-in.js';
import { confirmEmail, requestPasswordReset, resetPassword, resetTokenValid, signUp } from '../../domain/developers/users.js';
import { isCommonPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/developers/passwords.js';
import type { WebKit } from '../kit.js';
import { BASE, infoPage } from '../pages/layout.js';
import { forgotPage, resetPage, secondFactorPage, signInPage, signUpPage } from '../pages/account.js';
import { count } from '../pages/format.js';

export const emailSchema = Joi.string().trim().lowercase().email({ tlds: false }).max(254).required();
const passwordSchema = Joi.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH).required();

export const WRONG_CODE = 'Code incorrect.';
export const CODE_REPLAYED = 'Ce code a déjà servi. Attendez le suivant (30 secondes).';
export const TOO_MANY_CODES = 'Trop de codes erronés. Réessayez dans 15 minutes.';

/** Why a new password is refused, in French; undefined when it is acceptable. */
export function passwordRefusal(password: string): string | undefined {
  if (passwordSchema.validate(password).error)
    return `Le mot de passe doit compter de ${count(PASSWORD_MIN_LENGTH)} à ${count(PASSWORD_MAX_LENGTH)} caractères.`;
  if (isCommonPassword(password))
    return 'Ce mot de passe figure dans les listes de mots de passe courants ou divulgués : il serait deviné en quelques essais. Choisissez-en un autre.';
  return undefined;
}

export const TOO_MANY_FROM_ADDRESS = 'Trop de demandes depuis votre adresse. Réessayez dans 15 minutes.';

/** Sign-up with an emailed confirmation, sign-in and out, password reset by emailed link. */
export function accountRoutes(router: Router, kit: WebKit): void {
  const { config, db } = kit.deps;
  router.get('/inscription', async (ctx) => kit.page(ctx, 200, signUpPage(await kit.ensureSession(ctx))));
  router.post('/inscription', async (ctx) => {
    const session = ctx.state.session!;
    const email = emailSchema.validate(kit.form(ctx, 'email'));
    const password = kit.form(ctx, 'password');
    const refusal = email.error ? 'Adresse e-mail invalide.' : passwordRefusal(password);
    if (refusal) return kit.page(ctx, 400, signUpPage(session, { kind: 'error', text: refusal }, kit.form(ctx, 'email')));
    const base = kit.publicUrl();
    const result = await signUp(db, { email: email.value, password, address: ctx.ip });
    if (result.kind === 'throttled') return kit.page(ctx, 429, signUpPage(session, { kind: 'error', text: TOO_MANY_FROM_ADDRESS }, email.value));
    if (result.kind === 'created') {
      await kit.queueEmail(ctx, {
        to: email.value,
        subject: 'Confirmez votre adresse e-mail',
        text: `Bonjour,\n\nPour confirmer votre adresse et activer votre compte, ouvrez ce lien (valable 48 heures) :\n\n${base}${BASE}/confirmation?token=${result.confirmToken}\n\nSi vous n’avez pas créé de compte, ignorez ce message.\n`,
      });
    } else {
      await kit.queueEmail(ctx, {
        to: email.value,
        subject: 'Vous avez déjà un compte',
        text: `Bonjour,\n\nQuelqu’un, vous peut-être, a voulu créer un compte avec cette adresse, qui en a déjà un.\n\nSe connecter : ${base}${BASE}/connexion\nMot de passe oublié : ${base}${BASE}/mot-de-passe-oublie\n\nSi ce n’est pas vous, ignorez ce message.\n`,
      });
    }
    // The same answer whether the email had an account or not.
    kit.page(
      ctx,
      200,
      infoPage(session, 'Vérifiez votre boîte mail', {
        kind: 'notice',
        text: `Un message part vers ${email.value} (sauf si plusieurs y sont déjà partis dans l’heure). Ouvrez le lien qu’il contient pour continuer.`,
      }),
    );
  });

  router.get('/confirmation', async (ctx) => {
    const confirmed = await confirmEmail(db, String(ctx.query.token ?? ''));
    if (!confirmed)
      return kit.page(
        ctx,
        400,
        infoPage(
          ctx.state.session,
          'Lien invalide',
          { kind: 'error', text: 'Ce lien est invalide, expiré ou déjà utilisé. Connectez-vous pour en recevoir un nouveau.' },
          { href: `${BASE}/connexion`, text: 'Se connecter' },
        ),
      );
    kit.page(
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
    const session = await kit.ensureSession(ctx);
    if (session.user) return ctx.redirect(BASE);
    kit.page(ctx, 200, signInPage(session));
  });
  router.post('/connexion', async (ctx) => {
    const session = ctx.state.session!;
    const email = kit.form(ctx, 'email').trim();
    const result = await signInWithPassword(kit.deps, session, { email, password: kit.form(ctx, 'password'), address: ctx.ip });
    if (result.step === 'refused' && result.reason === 'throttled')
      return kit.page(
        ctx,
        429,
        signInPage(
          session,
          {
            kind: 'error',
            text: 'Trop de tentatives pour cette adresse e-mail ou depuis votre adresse. Réessayez dans 15 minutes, ou choisissez un nouveau mot de passe.',
          },
          email,
        ),
      );
    if (result.step === 'refused') return kit.page(ctx, 401, signInPage(session, { kind: 'error', text: 'Adresse e-mail ou mot de passe incorrect.' }, email));
    if (result.step === 'unconfirmed') {
      await kit.queueEmail(ctx, {
        to: email.toLowerCase(),
        subject: 'Confirmez votre adresse e-mail',
        text: `Bonjour,\n\nPour confirmer votre adresse et activer votre compte, ouvrez ce lien (valable 48 heures) :\n\n${kit.publicUrl()}${BASE}/confirmation?token=${result.confirmToken}\n`,
      });
      return kit.page(
        ctx,
        403,
        signInPage(
          session,
          {
            kind: 'error',
            text: 'Confirmez d’abord votre adresse avec le lien que nous vous avons envoyé (un nouveau part, sauf si plusieurs sont partis dans l’heure).',
          },
          email,
        ),
      );
    }
    if (result.step === 'second-factor') {
      kit.setCookie(ctx, result.pending.id, Math.floor(config.dashboard.sessionTtlMs / 1000));
      return ctx.redirect(`${BASE}/connexion/code`);
    }
    await enterSignedIn(ctx, result);
  });

  /** The new session's cookie, and the account's first sandbox key shown once. */
  async function enterSignedIn(ctx: Context, { session, firstKey }: SignedIn): Promise<void> {
    kit.setCookie(ctx, session.id, Math.floor(config.dashboard.sessionTtlMs / 1000));
    if (firstKey) await kit.putFlash(session, firstKey);
    ctx.redirect(BASE);
  }

  const expiredStep = (ctx: Context): void =>
    kit.page(
      ctx,
      401,
      infoPage(
        undefined,
        'Connexion expirée',
        { kind: 'error', text: 'Cette étape de connexion a expiré (5 minutes). Saisissez de nouveau votre mot de passe.' },
        { href: `${BASE}/connexion`, text: 'Se connecter' },
      ),
    );
  router.get('/connexion/code', async (ctx) => {
    const session = ctx.state.session;
    if (!session?.pendingUserId) return expiredStep(ctx);
    kit.page(ctx, 200, secondFactorPage(session));
  });
  router.post('/connexion/code', async (ctx) => {
    const session = ctx.state.session!;
    const result = await signInWithCode(kit.deps, session, { code: kit.form(ctx, 'code'), address: ctx.ip });
    if (result.step === 'signed-in') return enterSignedIn(ctx, result);
    if (result.reason === 'expired') return expiredStep(ctx);
    if (result.reason === 'throttled') return kit.page(ctx, 429, secondFactorPage(session, { kind: 'error', text: TOO_MANY_CODES }));
    if (result.reason === 'replayed') return kit.page(ctx, 401, secondFactorPage(session, { kind: 'error', text: CODE_REPLAYED }));
    kit.page(ctx, 401, secondFactorPage(session, { kind: 'error', text: WRONG_CODE }));
  });

  router.post('/deconnexion', async (ctx) => {
    await deleteSession(db, ctx.state.session!.id);
    kit.setCookie(ctx, '', 0);
    ctx.redirect(`${BASE}/connexion`);
  });

  router.get('/mot-de-passe-oublie', async (ctx) => kit.page(ctx, 200, forgotPage(await kit.ensureSession(ctx))));
  router.post('/mot-de-passe-oublie', async (ctx) => {
    const session = ctx.state.session!;
    const email = emailSchema.validate(kit.form(ctx, 'email'));
    if (email.error) return kit.page(ctx, 400, forgotPage(session, { kind: 'error', text: 'Adresse e-mail invalide.' }));
    // The same work whether the email has an account or not (the email itself goes after the answer).
    const reset = await requestPasswordReset(db, email.value);
    await kit.queueEmail(
      ctx,
      {
        to: reset.email,
        subject: 'Choisir un nouveau mot de passe',
        text: `Bonjour,\n\nPour choisir un nouveau mot de passe, ouvrez ce lien (valable une heure) :\n\n${kit.publicUrl()}${BASE}/nouveau-mot-de-passe?token=${reset.resetToken}\n\nSi vous n’avez rien demandé, ignorez ce message : votre mot de passe reste le même.\n`,
      },
      reset.found,
    );
    kit.page(
      ctx,
      200,
      infoPage(session, 'Vérifiez votre boîte mail', {
        kind: 'notice',
        text: `Si un compte existe pour ${email.value}, un lien pour choisir un nouveau mot de passe y part (sauf si plusieurs y sont déjà partis dans l’heure).`,
      }),
    );
  });

  /** A reset link that is unknown, expired or used: offer a new one. */
  const invalidResetLink = (ctx: Context, session: Session): void =>
    kit.page(
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
    const session = await kit.ensureSession(ctx);
    const token = String(ctx.query.token ?? '');
    if (!(await resetTokenValid(db, token))) return invalidResetLink(ctx, session);
    kit.page(ctx, 200, resetPage(session, token));
  });
  router.post('/nouveau-mot-de-passe', async (ctx) => {
    const session = ctx.state.session!;
    const token = kit.form(ctx, 'token');
    const password = kit.form(ctx, 'password');
    const refusal = passwordRefusal(password);
    if (refusal) return kit.page(ctx, 400, resetPage(session, token, { kind: 'error', text: refusal }));
    const outcome = await resetPassword(db, token, password, ctx.ip);
    if (outcome === 'throttled') return kit.page(ctx, 429, resetPage(session, token, { kind: 'error', text: TOO_MANY_FROM_ADDRESS }));
    if (outcome === 'invalid') return invalidResetLink(ctx, session);
    kit.page(
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
}
