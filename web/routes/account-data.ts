import type Router from '@koa/router';
import type { Context } from 'koa';
import { PassThrough } from 'node:stream';
import { cancelClosing, closingState, confirmClosing, requestClosing } from '../../domain/access/closing.js';
import { exportAccount, exportFileName } from '../../domain/privacy/export.js';
import { logger } from '../../lib/logger.js';
import type { WebKit } from '../kit.js';
import { accountDataPage } from '../pages/account-data.js';
import { BASE, infoPage, when, type Message } from '../pages/layout.js';

const DAY_MS = 86_400_000;

/** `/dashboard/donnees`: the account's export (a download) and its closing: asked, confirmed by email, cancelable during the grace period. */
export function accountDataRoutes(router: Router, kit: WebKit): void {
  const { config, db } = kit.deps;
  const graceDays = Math.max(1, Math.round(config.accountClosingGraceMs / DAY_MS));

  const show = async (ctx: Context, status: number, m?: Message): Promise<void> => {
    const session = ctx.state.session!;
    kit.page(ctx, status, accountDataPage(session, await closingState(db, session.user!.accountId), graceDays, m));
  };

  router.get('/donnees', kit.allowed('account'), async (ctx) => {
    const done: Record<string, string> = { 'cloture-annulee': 'La clôture du compte est annulée : les clés d’API et les webhooks fonctionnent de nouveau.' };
    const notice = done[String(ctx.query.fait ?? '')];
    await show(ctx, 200, notice ? { kind: 'notice', text: notice } : undefined);
  });

  // A form's POST (with the session's CSRF token), answered by the archive itself, written as it is read.
  router.post('/donnees/export', kit.allowed('account'), async (ctx) => {
    const accountId = ctx.state.session!.user!.accountId;
    const body = new PassThrough();
    ctx.status = 200;
    ctx.type = 'application/gzip';
    ctx.set('Content-Disposition', `attachment; filename="${exportFileName(accountId)}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
    exportAccount(db, config.secretKey, accountId, kit.actor(ctx), body).catch((error: unknown) => {
      // The answer has begun: the download ends short (its gzip stream unfinished), which the browser reports as failed.
      logger.error({ err: error, accountId }, 'developer space: account export failed');
      body.destroy(error as Error);
    });
  });

  router.post('/donnees/cloture', kit.allowed('account'), async (ctx) => {
    const session = ctx.state.session!;
    const user = session.user!;
    const result = await requestClosing(db, {
      accountId: user.accountId,
      userId: user.id,
      password: kit.form(ctx, 'closing_password'),
      address: ctx.ip,
      actor: kit.actor(ctx),
    });
    if (result.kind === 'throttled')
      return show(ctx, 429, { kind: 'error', text: 'Trop de tentatives pour ce compte ou depuis votre adresse. Réessayez dans 15 minutes.' });
    if (result.kind === 'refused') return show(ctx, 401, { kind: 'error', text: 'Mot de passe actuel incorrect.' });
    if (result.kind === 'already_closing') return show(ctx, 409, { kind: 'error', text: 'La clôture de ce compte est déjà confirmée.' });
    const link = `${kit.publicUrl()}${BASE}/cloture/confirmer?token=${result.token}`;
    for (const to of result.to)
      await kit.queueEmail(ctx, {
        to,
        subject: 'Confirmez la clôture de votre compte',
        text:
          `Bonjour,\n\n${user.email} a demandé la clôture du compte. Pour la confirmer, ouvrez ce lien (valable 48 heures, une seule fois) :\n\n${link}\n\n` +
          `Dès la confirmation, les clés d’API sont refusées et les webhooks s’arrêtent ; le compte est clôturé ${graceDays} jours plus tard, et d’ici là la clôture peut être annulée depuis ${kit.publicUrl()}${BASE}/donnees.\n\n` +
          `Si vous n’avez rien demandé, ignorez ce message : rien ne change.\n`,
      });
    await show(ctx, 200, {
      kind: 'notice',
      text: 'Un lien de confirmation part vers les propriétaires du compte. La clôture ne commence que lorsqu’il est ouvert.',
    });
  });

  router.get('/cloture/confirmer', async (ctx) => {
    const outcome = await confirmClosing(db, config, String(ctx.query.token ?? ''), ctx.ip);
    if (outcome.kind === 'invalid')
      return kit.page(ctx, 400, infoPage(ctx.state.session, 'Lien invalide', { kind: 'error', text: 'Ce lien est invalide, expiré ou déjà utilisé.' }));
    for (const to of outcome.to)
      await kit.queueEmail(ctx, {
        to,
        subject: 'Clôture de votre compte confirmée',
        text:
          `Bonjour,\n\nLa clôture du compte est confirmée. Les clés d’API sont désormais refusées, les webhooks arrêtés, et aucun nouvel envoi n’est possible ; les envois déjà payés vont jusqu’à leur terme.\n\n` +
          `Le compte sera clôturé le ${when(outcome.closesAt)} : le crédit restant vous sera alors remboursé et les données personnelles effacées. Jusque-là, vous pouvez annuler la clôture : ${kit.publicUrl()}${BASE}/donnees\n`,
      });
    kit.page(
      ctx,
      200,
      infoPage(
        ctx.state.session,
        'Clôture confirmée',
        { kind: 'notice', text: `La clôture du compte est confirmée. Elle prendra effet le ${when(outcome.closesAt)} ; d’ici là, vous pouvez l’annuler.` },
        { href: `${BASE}/donnees`, text: 'Données et clôture' },
      ),
    );
  });

  router.post('/donnees/cloture/annuler', kit.allowed('account'), async (ctx) => {
    const outcome = await cancelClosing(db, ctx.state.session!.user!.accountId, kit.actor(ctx));
    if (outcome === 'none') return show(ctx, 409, { kind: 'error', text: 'Aucune clôture en cours à annuler.' });
    ctx.redirect(`${BASE}/donnees?fait=cloture-annulee`);
  });
}
