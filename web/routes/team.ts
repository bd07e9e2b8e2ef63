import type Router from '@koa/router';
import type { Context } from 'koa';
import { createSession, deleteSession } from '../../domain/developers/sessions.js';
import { isRole, ROLE_LABELS } from '../../domain/developers/roles.js';
import { acceptInvitation, changeRole, invitationState, inviteMember, listTeam, removeMember, type TeamChange } from '../../domain/developers/team.js';
import type { WebKit } from '../kit.js';
import { BASE, infoPage, type Message } from '../pages/layout.js';
import { joinPage, teamPage } from '../pages/team.js';
import { emailSchema, passwordRefusal, TOO_MANY_FROM_ADDRESS } from './account.js';

export const LAST_OWNER = 'Le compte doit garder au moins un propriétaire : nommez-en un autre avant de retirer ou changer celui-ci.';
export const ONE_ACCOUNT_PER_USER =
  'Cette adresse a déjà un accès à l’espace développeur, dans un autre compte : un utilisateur n’appartient qu’à un compte. Demandez une invitation pour une autre adresse.';
const INVALID_INVITATION = 'Cette invitation est invalide, expirée ou déjà utilisée. Demandez-en une nouvelle au propriétaire du compte.';

/** `/dashboard/equipe` (owners): members, invitations, roles; `/dashboard/invitation`: an invitation link. */
export function teamRoutes(router: Router, kit: WebKit): void {
  const { config, db } = kit.deps;
  const guard = kit.allowed('team');

  const show = async (ctx: Context, status: number, m?: Message): Promise<void> => {
    const session = ctx.state.session!;
    kit.page(ctx, status, teamPage(session, await listTeam(db, session.user!.accountId), m));
  };
  const error = (text: string): Message => ({ kind: 'error', text });
  const actor = (ctx: Context) => kit.actor(ctx) as ReturnType<WebKit['actor']> & { kind: 'developer' };

  router.get('/equipe', guard, async (ctx) => {
    const done: Record<string, string> = {
      role: 'Rôle changé.',
      retire: 'Membre retiré : ses sessions sont fermées.',
    };
    const notice = done[String(ctx.query.fait ?? '')];
    await show(ctx, 200, notice ? { kind: 'notice', text: notice } : undefined);
  });

  router.post('/equipe/inviter', guard, async (ctx) => {
    const email = emailSchema.validate(kit.form(ctx, 'email'));
    const role = kit.form(ctx, 'role');
    if (email.error) return show(ctx, 400, error('Adresse e-mail invalide.'));
    if (!isRole(role)) return show(ctx, 400, error('Rôle inconnu.'));
    const result = await inviteMember(db, actor(ctx), { accountId: ctx.state.session!.user!.accountId, email: email.value, role });
    if (result.kind === 'forbidden') return show(ctx, 403, error('Seul un propriétaire du compte peut inviter.'));
    if (result.kind === 'member') return show(ctx, 409, error(`${email.value} est déjà membre de ce compte.`));
    await kit.queueEmail(ctx, {
      to: result.email,
      subject: 'Invitation à rejoindre un compte de l’espace développeur',
      text: `Bonjour,\n\n${ctx.state.session!.user!.email} vous invite à rejoindre son compte de l’espace développeur avec le rôle ${ROLE_LABELS[role]}.\n\nPour accepter, ouvrez ce lien (valable 7 jours, une seule fois) :\n\n${kit.publicUrl()}${BASE}/invitation?token=${result.token}\n\nSi vous ne vous attendiez pas à ce message, ignorez-le.\n`,
    });
    await show(ctx, 200, { kind: 'notice', text: `Invitation envoyée à ${result.email} (sauf si plusieurs messages y sont déjà partis dans l’heure).` });
  });

  const answer = async (ctx: Context, outcome: TeamChange, done: string): Promise<void> => {
    if (outcome === 'done') return ctx.redirect(`${BASE}/equipe?fait=${done}`);
    if (outcome === 'last_owner') return show(ctx, 409, error(LAST_OWNER));
    if (outcome === 'forbidden') return show(ctx, 403, error('Seul un propriétaire du compte peut changer l’équipe.'));
    return show(ctx, 404, error('Ce membre n’existe pas ou n’est plus dans le compte.'));
  };
  router.post('/equipe/:id/role', guard, async (ctx) => {
    const role = kit.form(ctx, 'role');
    if (!isRole(role)) return show(ctx, 400, error('Rôle inconnu.'));
    const userId = /^[0-9a-f-]{36}$/.test(ctx.params.id!) ? ctx.params.id! : '00000000-0000-0000-0000-000000000000';
    await answer(ctx, await changeRole(db, actor(ctx), { accountId: ctx.state.session!.user!.accountId, userId, role }), 'role');
  });
  router.post('/equipe/:id/retirer', guard, async (ctx) => {
    const userId = /^[0-9a-f-]{36}$/.test(ctx.params.id!) ? ctx.params.id! : '00000000-0000-0000-0000-000000000000';
    const outcome = await removeMember(db, actor(ctx), { accountId: ctx.state.session!.user!.accountId, userId });
    // Removing oneself ends one's own session too.
    if (outcome === 'done' && userId === ctx.state.session!.user!.id) return ctx.redirect(`${BASE}/connexion`);
    await answer(ctx, outcome, 'retire');
  });

  const invalid = (ctx: Context): void =>
    kit.page(ctx, 400, infoPage(ctx.state.session, 'Invitation invalide', error(INVALID_INVITATION), { href: `${BASE}/connexion`, text: 'Se connecter' }));
  const taken = (ctx: Context): void =>
    kit.page(
      ctx,
      409,
      infoPage(ctx.state.session, 'Un compte par utilisateur', error(ONE_ACCOUNT_PER_USER), { href: `${BASE}/connexion`, text: 'Se connecter' }),
    );

  router.get('/invitation', async (ctx) => {
    const session = await kit.ensureSession(ctx);
    const token = String(ctx.query.token ?? '');
    const state = await invitationState(db, token);
    if (state.kind === 'invalid') return invalid(ctx);
    if (state.kind === 'taken') return taken(ctx);
    kit.page(ctx, 200, joinPage(session, token, state));
  });
  router.post('/invitation', async (ctx) => {
    const session = ctx.state.session!;
    const token = kit.form(ctx, 'token');
    const password = kit.form(ctx, 'password');
    const refusal = passwordRefusal(password);
    if (refusal) {
      const state = await invitationState(db, token);
      if (state.kind !== 'valid') return state.kind === 'taken' ? taken(ctx) : invalid(ctx);
      return kit.page(ctx, 400, joinPage(session, token, state, error(refusal)));
    }
    const result = await acceptInvitation(db, { token, password, address: ctx.ip });
    if (result.kind === 'invalid') return invalid(ctx);
    if (result.kind === 'taken') return taken(ctx);
    if (result.kind === 'throttled') {
      const state = await invitationState(db, token);
      return state.kind === 'valid' ? kit.page(ctx, 429, joinPage(session, token, state, error(TOO_MANY_FROM_ADDRESS))) : invalid(ctx);
    }
    // Signed in at once as the new member, in a new session (as at sign-in).
    await deleteSession(db, session.id);
    const signed = await createSession(db, config.dashboard.sessionTtlMs, result.userId);
    kit.setCookie(ctx, signed.id, Math.floor(config.dashboard.sessionTtlMs / 1000));
    ctx.redirect(BASE);
  });
}
