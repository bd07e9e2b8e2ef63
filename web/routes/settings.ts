import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Session } from '../../domain/developers/sessions.js';
import { changePassword, confirmEmailChange, confirmTwoFactor, disableTwoFactor, requestEmailChange } from '../../domain/developers/users.js';
import { pendingTwoFactorSecret, recoveryCodesLeft, startTwoFactor, totpUri, twoFactorEnabled } from '../../domain/developers/two-factor.js';
import type { WebKit } from '../kit.js';
import { BASE, infoPage, type Message } from '../pages/layout.js';
import { recoveryCodesPage, settingsPage, type AiSetting, type TwoFactorState } from '../pages/settings.js';
import { aiConsent, setAiEnabled } from '../../domain/access/ai-consent.js';
import { aiProvider } from '../../domain/privacy/processors.js';
import { accountRetentionDays, setAccountRetentionDays } from '../../domain/access/accounts.js';
import {
  ARCHIVE_YEARS,
  isArchiveYears,
  isReturnEnvelopeType,
  postalSettings,
  setArchiveYears,
  setReturnEnvelope,
  type ArchiveApi,
} from '../../domain/access/postal-settings.js';
import { isUuid } from '../../lib/text.js';
import { isAllowedRetention, MAILING_RETENTION_MAX_DAYS, MAILING_RETENTION_MIN_DAYS } from '../../domain/privacy/retention.js';
import { CODE_REPLAYED, emailSchema, passwordRefusal, TOO_MANY_CODES, WRONG_CODE } from './account.js';
import { count } from '../pages/format.js';

const WRONG_PASSWORD = 'Mot de passe actuel incorrect.';
const TOO_MANY_ATTEMPTS = 'Trop de tentatives pour ce compte ou depuis votre adresse. Réessayez dans 15 minutes.';

/** `/dashboard/parametres`: password, email and two-factor sign-in of the signed-in user. */
export function settingsRoutes(router: Router, kit: WebKit): void {
  const { config, db } = kit.deps;

  async function twoFactorState(session: Session): Promise<TwoFactorState> {
    const user = session.user!;
    if (await twoFactorEnabled(db, user.id)) return { kind: 'on', recoveryCodesLeft: await recoveryCodesLeft(db, user.id) };
    const secret = await pendingTwoFactorSecret(db, config.secretKey, user.id);
    return secret ? { kind: 'waiting', secret, uri: totpUri(secret, user.email) } : { kind: 'off' };
  }
  const aiSetting = async (session: Session): Promise<AiSetting> => ({
    consent: await aiConsent(db, session.user!.accountId),
    provider: aiProvider(config),
    mayChange: session.user!.role === 'owner',
  });
  const show = async (ctx: Context, status: number, m?: Message): Promise<void> => {
    const session = ctx.state.session!;
    const user = session.user!;
    const retention = { days: await accountRetentionDays(db, user.accountId), mayChange: user.role === 'owner' };
    const postal = { settings: await postalSettings(db, user.accountId), mayChange: user.role === 'owner' };
    kit.page(ctx, status, settingsPage(session, await twoFactorState(session), await aiSetting(session), retention, postal, m));
  };
  const error = (text: string): Message => ({ kind: 'error', text });

  router.get('/parametres', kit.allowed('settings'), async (ctx) => {
    const done: Record<string, string> = {
      'mot-de-passe': 'Mot de passe changé. Vos autres sessions sont fermées.',
      '2fa-desactivee': 'La double authentification est désactivée.',
      'ia-activee': 'Les fonctions d’IA sont activées.',
      'ia-desactivee': 'Les fonctions d’IA sont désactivées.',
      conservation: 'Durée de conservation des envois enregistrée.',
      'enveloppe-retour': 'Enveloppe retour enregistrée.',
      archivage: 'Durée d’archivage enregistrée.',
    };
    const notice = done[String(ctx.query.fait ?? '')];
    await show(ctx, 200, notice ? { kind: 'notice', text: notice } : undefined);
  });

  // The account's retention of final mailings (docs/retention.md): its owners only, audit-logged.
  router.post('/parametres/conservation', kit.allowed('settings'), async (ctx) => {
    const user = ctx.state.session!.user!;
    if (user.role !== 'owner') return show(ctx, 403, error('Seul un propriétaire du compte peut changer la durée de conservation des envois.'));
    const text = kit.form(ctx, 'retention_days').trim();
    const days = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
    if (!isAllowedRetention(days))
      return show(
        ctx,
        400,
        error(`Durée de conservation : un nombre entier de jours, de ${count(MAILING_RETENTION_MIN_DAYS)} à ${count(MAILING_RETENTION_MAX_DAYS)}.`),
      );
    await setAccountRetentionDays(db, user.accountId, days, kit.actor(ctx));
    ctx.redirect(`${BASE}/parametres?fait=conservation`);
  });

  // The account's return envelope at the operator (issue 55): its owners only, audit-logged.
  router.post('/parametres/enveloppe-retour', kit.allowed('settings'), async (ctx) => {
    const user = ctx.state.session!.user!;
    if (user.role !== 'owner') return show(ctx, 403, error('Seul un propriétaire du compte peut changer l’enveloppe retour.'));
    const type = kit.form(ctx, 'return_envelope_type').trim();
    const id = kit.form(ctx, 'return_envelope_id').trim().toLowerCase();
    if (type === '') {
      await setReturnEnvelope(db, user.accountId, null, kit.actor(ctx));
    } else {
      if (!isReturnEnvelopeType(type)) return show(ctx, 400, error('Type d’enveloppe retour inconnu.'));
      if (!isUuid(id)) return show(ctx, 400, error('Référence de l’enveloppe : l’identifiant (UUID) que l’opérateur lui a donné.'));
      await setReturnEnvelope(db, user.accountId, { type, id }, kit.actor(ctx));
    }
    ctx.redirect(`${BASE}/parametres?fait=enveloppe-retour`);
  });

  // How long the operator archives the account's letters, per API (issue 55): its owners only, audit-logged.
  router.post('/parametres/archivage', kit.allowed('settings'), async (ctx) => {
    const user = ctx.state.session!.user!;
    if (user.role !== 'owner') return show(ctx, 403, error('Seul un propriétaire du compte peut changer la durée d’archivage.'));
    const change: Partial<Record<ArchiveApi, number | null>> = {};
    for (const api of ['simple', 'registered'] as const) {
      const text = kit.form(ctx, `archive_${api}`).trim();
      const years = text === 'default' ? null : /^\d{1,2}$/.test(text) ? Number(text) : NaN;
      if (years !== null && !isArchiveYears(api, years))
        return show(
          ctx,
          400,
          error(`Archivage des lettres ${api === 'simple' ? 'simples' : 'recommandées'} : ${ARCHIVE_YEARS[api].join(', ')} ans, ou par défaut.`),
        );
      change[api] = years;
    }
    await setArchiveYears(db, user.accountId, change, kit.actor(ctx));
    ctx.redirect(`${BASE}/parametres?fait=archivage`);
  });

  router.post('/parametres/mot-de-passe', kit.allowed('settings'), async (ctx) => {
    const session = ctx.state.session!;
    const password = kit.form(ctx, 'new_password');
    const refusal = password !== kit.form(ctx, 'new_password_again') ? 'Les deux saisies du nouveau mot de passe sont différentes.' : passwordRefusal(password);
    if (refusal) return show(ctx, 400, error(refusal));
    const outcome = await changePassword(db, {
      userId: session.user!.id,
      sessionId: session.id,
      current: kit.form(ctx, 'current_password'),
      password,
      address: ctx.ip,
    });
    if (outcome === 'throttled') return show(ctx, 429, error(TOO_MANY_ATTEMPTS));
    if (outcome === 'refused') return show(ctx, 401, error(WRONG_PASSWORD));
    ctx.redirect(`${BASE}/parametres?fait=mot-de-passe`);
  });

  router.post('/parametres/email', kit.allowed('settings'), async (ctx) => {
    const session = ctx.state.session!;
    const email = emailSchema.validate(kit.form(ctx, 'new_email'));
    if (email.error) return show(ctx, 400, error('Adresse e-mail invalide.'));
    if (email.value === session.user!.email) return show(ctx, 400, error('C’est déjà l’adresse de ce compte.'));
    const result = await requestEmailChange(db, { userId: session.user!.id, current: kit.form(ctx, 'email_password'), newEmail: email.value, address: ctx.ip });
    if (result.kind === 'throttled') return show(ctx, 429, error(TOO_MANY_ATTEMPTS));
    if (result.kind !== 'requested') return show(ctx, 401, error(WRONG_PASSWORD));
    const base = kit.publicUrl();
    // One email to the new address either way (a link, or a notice to its owner): the same work, the same page.
    await kit.queueEmail(
      ctx,
      result.taken
        ? {
            to: result.newEmail,
            subject: 'Tentative d’utiliser votre adresse',
            text: `Bonjour,\n\nQuelqu’un a voulu donner cette adresse à un autre compte de l’espace développeur. Elle est déjà celle de votre compte, et rien n’a changé.\n\nSi c’est vous, ignorez ce message.\n`,
          }
        : {
            to: result.newEmail,
            subject: 'Confirmez votre nouvelle adresse e-mail',
            text: `Bonjour,\n\nPour que cette adresse devienne celle de votre compte, ouvrez ce lien (valable 48 heures, une seule fois) :\n\n${base}${BASE}/confirmation-email?token=${result.token}\n\nSi vous n’avez rien demandé, ignorez ce message.\n`,
          },
    );
    await kit.queueEmail(ctx, {
      to: result.oldEmail,
      subject: 'Changement d’adresse e-mail demandé',
      text: `Bonjour,\n\nUn changement de l’adresse de votre compte vers ${result.newEmail} a été demandé. L’adresse ne changera que si le lien envoyé à la nouvelle adresse est ouvert.\n\nSi ce n’est pas vous, changez votre mot de passe : ${base}${BASE}/parametres\n`,
    });
    await show(ctx, 200, {
      kind: 'notice',
      text: `Un lien part vers ${result.newEmail} (sauf si plusieurs y sont déjà partis dans l’heure). Votre adresse changera quand vous l’ouvrirez.`,
    });
  });

  router.get('/confirmation-email', async (ctx) => {
    const outcome = await confirmEmailChange(db, String(ctx.query.token ?? ''), ctx.ip);
    if (outcome === 'invalid') return kit.page(ctx, 400, infoPage(ctx.state.session, 'Lien invalide', error('Ce lien est invalide, expiré ou déjà utilisé.')));
    kit.page(
      ctx,
      200,
      infoPage(ctx.state.session, 'Adresse changée', { kind: 'notice', text: 'L’adresse de votre compte est changée.' }, { href: BASE, text: 'Accueil' }),
    );
  });

  // The account's AI features (issue 53): its owners only, since it decides where the account's data goes.
  router.post('/parametres/ia', kit.allowed('settings'), async (ctx) => {
    const session = ctx.state.session!;
    if (session.user!.role !== 'owner') return show(ctx, 403, error('Seul un propriétaire du compte peut activer ou désactiver les fonctions d’IA.'));
    const enabled = kit.form(ctx, 'enabled') === '1';
    await setAiEnabled(db, session.user!.accountId, enabled, kit.actor(ctx), aiProvider(config));
    ctx.redirect(`${BASE}/parametres?fait=${enabled ? 'ia-activee' : 'ia-desactivee'}`);
  });

  router.post('/parametres/2fa/activer', kit.allowed('settings'), async (ctx) => {
    await startTwoFactor(db, config.secretKey, ctx.state.session!.user!.id);
    await show(ctx, 200);
  });
  router.post('/parametres/2fa/confirmer', kit.allowed('settings'), async (ctx) => {
    const session = ctx.state.session!;
    const result = await confirmTwoFactor(db, config.secretKey, { userId: session.user!.id, code: kit.form(ctx, 'confirm_code'), address: ctx.ip });
    if (result.kind === 'throttled') return show(ctx, 429, error(TOO_MANY_CODES));
    if (result.kind !== 'enabled') return show(ctx, 400, error(`${WRONG_CODE} Vérifiez l’heure de votre téléphone et saisissez le code affiché.`));
    kit.page(ctx, 200, recoveryCodesPage(session, result.recoveryCodes));
  });
  router.post('/parametres/2fa/desactiver', kit.allowed('settings'), async (ctx) => {
    const session = ctx.state.session!;
    const outcome = await disableTwoFactor(db, config.secretKey, {
      userId: session.user!.id,
      current: kit.form(ctx, 'disable_password'),
      code: kit.form(ctx, 'disable_code'),
      address: ctx.ip,
    });
    if (outcome === 'throttled') return show(ctx, 429, error(TOO_MANY_ATTEMPTS));
    if (outcome === 'refused') return show(ctx, 401, error(WRONG_PASSWORD));
    if (outcome === 'replayed') return show(ctx, 401, error(CODE_REPLAYED));
    if (outcome === 'wrong') return show(ctx, 401, error(WRONG_CODE));
    ctx.redirect(`${BASE}/parametres?fait=2fa-desactivee`);
  });
}
