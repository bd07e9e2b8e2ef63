import type Router from '@koa/router';
import type { Context } from 'koa';
import { findBillingProfile } from '../../domain/billing/profiles.js';
import {
  refreshSenderIdentity,
  requestSenderIdentity,
  senderIdentityOf,
  type SenderIdentityView,
  type SenderMissing,
} from '../../domain/developers/sender-identity.js';
import { PartnerFailure, Unavailable, Unprocessable } from '../../domain/errors.js';
import { logger } from '../../lib/logger.js';
import type { WebKit } from '../kit.js';
import { BASE, type Message } from '../pages/layout.js';
import { senderIdentityPage, senderMissingText } from '../pages/sender-identity.js';

const DONE: Record<string, Message> = {
  demandee: { kind: 'notice', text: 'Vérification demandée au prestataire.' },
  deja: { kind: 'notice', text: 'La vérification était déjà demandée : rien n’a été demandé de plus.' },
};

const UNREACHABLE: Message = {
  kind: 'error',
  text: 'Le prestataire n’a pas pu être joint : rien n’a changé. Réessayez dans un instant.',
};

/**
 * `/dashboard/identite-expediteur`: the account's sender identity for electronic registered letters
 * (domain/developers/sender-identity.ts). Every member may read it (the family of the settings);
 * only an owner may request the check, since it names the company and one of its people to the provider.
 */
export function senderIdentityRoutes(router: Router, kit: WebKit): void {
  const { db, config } = kit.deps;

  async function show(ctx: Context, status: number, extra: { view?: SenderIdentityView; form?: { firstName: string; lastName: string }; m?: Message } = {}) {
    const session = ctx.state.session!;
    const user = session.user!;
    kit.page(
      ctx,
      status,
      senderIdentityPage(session, {
        view: extra.view ?? (await senderIdentityOf(kit.deps, user.accountId)),
        profile: await findBillingProfile(db, user.accountId),
        mayRequest: user.role === 'owner',
        email: user.email,
        simulatorDelayMs: config.operatorStepDelayMs,
        form: extra.form,
        m: extra.m,
      }),
    );
  }

  // Opening the page reads the provider again while the check is under way (AR24 says when the key was typed).
  router.get('/identite-expediteur', kit.allowed('settings'), async (ctx) => {
    const accountId = ctx.state.session!.user!.accountId;
    let view: SenderIdentityView | undefined;
    let m = DONE[String(ctx.query.fait ?? '')];
    try {
      view = await refreshSenderIdentity(kit.deps, accountId);
    } catch (error) {
      if (!(error instanceof PartnerFailure || error instanceof Unavailable || error instanceof Unprocessable)) throw error;
      logger.warn({ err: error, accountId }, 'sender identity: the provider could not be read');
      m = { kind: 'error', text: 'Le prestataire n’a pas pu être joint : voici l’état enregistré lors de sa dernière lecture.' };
    }
    await show(ctx, 200, { view, m });
  });

  router.post('/identite-expediteur', kit.allowed('settings'), async (ctx) => {
    const user = ctx.state.session!.user!;
    const form = { firstName: kit.form(ctx, 'sender_first_name'), lastName: kit.form(ctx, 'sender_last_name') };
    if (user.role !== 'owner')
      return show(ctx, 403, { m: { kind: 'error', text: 'Seul un propriétaire du compte peut demander la vérification de l’identité d’expéditeur.' } });
    try {
      const { outcome } = await requestSenderIdentity(kit.deps, user.accountId, kit.actor(ctx), form);
      ctx.redirect(`${BASE}/identite-expediteur?fait=${outcome === 'requested' ? 'demandee' : 'deja'}`);
    } catch (error) {
      if (error instanceof Unprocessable) {
        const details = error.details as { missing?: SenderMissing[]; reason?: string } | undefined;
        const text = details?.missing ? senderMissingText(details.missing) : `Le prestataire a refusé la demande : ${details?.reason ?? error.message}`;
        return show(ctx, 422, { form, m: { kind: 'error', text } });
      }
      if (error instanceof PartnerFailure) return show(ctx, 502, { form, m: UNREACHABLE });
      if (error instanceof Unavailable) return show(ctx, 503, { form, m: UNREACHABLE });
      throw error;
    }
  });
}
