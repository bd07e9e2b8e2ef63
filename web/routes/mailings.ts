import type Router from '@koa/router';
import Joi from 'joi';
import { Conflict, InvalidRequest, NotFound } from '../../domain/errors.js';
import { eraseMailingPersonalData } from '../../domain/privacy/erasure.js';
import { listMailings } from '../../domain/mailings/listing.js';
import { proofPdf } from '../../domain/mailings/proofs.js';
import type { MailingStatus, ProofKind } from '../../domain/mailings/states.js';
import { mailingIdParams, mailingListQuery, proofParams } from '../../api/schemas/mailings.js';
import { answerFramedPdf, type WebKit } from '../kit.js';
import { filledQuery, frenchError, maxLength, queryText } from '../forms.js';
import { BASE, infoPage } from '../pages/layout.js';
import { mailingsPage, type MailingFilters } from '../pages/mailings.js';
import { mailingPage } from '../pages/mailing.js';
import { findMailing } from '../../domain/mailings/mailing.js';
import { findBatch, finishedMailings } from '../../domain/batches/batches.js';
import { mailingDeliveries } from '../../domain/webhooks/deliveries.js';
import { mayOpen } from '../../domain/developers/roles.js';
import { printedLetterPdf } from '../../domain/developers/send-mailing.js';

/** GET /v1/mailings's own query (limits, statuses, cursor), plus the environment the page shows. */
const filtersSchema = mailingListQuery.keys({ env: Joi.string().valid('test', 'live').default('test') });
const LABELS = { env: 'Environnement', status: 'Statut', reference: 'Référence', batch: 'Lot', limit: 'Nombre par page', cursor: 'Page' };
const REFERENCE_MAX = maxLength(mailingListQuery, 'reference')!;

/** The account's mailings (read-only) and their proofs, through the API's own domain functions. */
export function mailingRoutes(router: Router, kit: WebKit): void {
  const { db, config } = kit.deps;

  router.get('/envois', kit.allowed('mailings'), async (ctx) => {
    const session = ctx.state.session!;
    const { value, error } = filtersSchema.validate(filledQuery(ctx));
    const filters: MailingFilters = {
      env: ctx.query.env === 'live' ? 'live' : 'test',
      status: queryText(ctx, 'status'),
      reference: queryText(ctx, 'reference'),
      batch: queryText(ctx, 'batch'),
    };
    const refuse = (text: string): void =>
      kit.page(ctx, 400, mailingsPage(session, { filters, referenceMax: REFERENCE_MAX, mailings: [], nextCursor: null, m: { kind: 'error', text } }));
    if (error) return refuse(frenchError(error, LABELS));
    const query = value as { env: 'test' | 'live'; limit: number; cursor?: string; reference?: string; status?: MailingStatus; batch?: string };
    try {
      const list = await listMailings(db, config.secretKey, {
        accountId: session.user!.accountId,
        test: query.env === 'test',
        limit: query.limit,
        cursor: query.cursor,
        reference: query.reference,
        status: query.status,
        batch: query.batch,
      });
      // One batch's mailings: its progress above them (the page's script follows it while it runs).
      const batch = query.batch ? await findBatch(db, { accountId: session.user!.accountId, test: query.env === 'test' }, query.batch) : undefined;
      const progress = batch && { batch, finished: finishedMailings(batch) };
      kit.page(ctx, 200, mailingsPage(session, { filters, referenceMax: REFERENCE_MAX, mailings: list.data, nextCursor: list.nextCursor, progress }));
    } catch (failure) {
      if (failure instanceof InvalidRequest) return refuse('Ce lien de page n’est plus valide : revenez à la première page de la liste.');
      throw failure;
    }
  });

  // One mailing on its own page (/envois/nouveau and /envois/lots, not ids, go on to their own routes).
  router.get('/envois/:id', kit.allowed('mailings'), async (ctx, next) => {
    const session = ctx.state.session!;
    const { error } = mailingIdParams.validate({ id: ctx.params.id });
    if (error) return next();
    const found = await findMailing(db, ctx.params.id!, true);
    if (!found || found.row.account_id !== session.user!.accountId)
      return kit.page(
        ctx,
        404,
        infoPage(
          session,
          'Envoi introuvable',
          { kind: 'error', text: 'Aucun envoi de ce compte n’a cet identifiant.' },
          { href: `${BASE}/envois`, text: 'Envois' },
        ),
      );
    const deliveries = mayOpen(session.user!.role, 'webhooks') ? await mailingDeliveries(db, session.user!.accountId, found.shipment.id, 50) : null;
    kit.page(ctx, 200, mailingPage(session, found.shipment, deliveries));
  });

  // A final mailing's personal data, erased as POST /v1/mailings/{id}/erase does: the account's owners only.
  router.post('/envois/:id/effacer', kit.allowed('mailings'), async (ctx) => {
    const session = ctx.state.session!;
    const back = { href: `${BASE}/envois`, text: 'Envois' };
    if (session.user!.role !== 'owner')
      return kit.page(
        ctx,
        403,
        infoPage(session, 'Accès refusé', { kind: 'error', text: 'Seul un propriétaire du compte peut effacer les données personnelles d’un envoi.' }, back),
      );
    const { error } = mailingIdParams.validate({ id: ctx.params.id });
    try {
      if (error) throw new NotFound('not a mailing id');
      const done = await eraseMailingPersonalData(db, ctx.params.id!, { accountId: session.user!.accountId, actor: kit.actor(ctx), via: 'developer_space' });
      ctx.redirect(`${BASE}/envois?env=${done.test ? 'test' : 'live'}`);
    } catch (failure) {
      if (failure instanceof NotFound)
        return kit.page(ctx, 404, infoPage(session, 'Envoi introuvable', { kind: 'error', text: 'Aucun envoi de ce compte n’a cet identifiant.' }, back));
      if (failure instanceof Conflict)
        return kit.page(
          ctx,
          409,
          infoPage(session, 'Envoi en cours', { kind: 'error', text: 'Les données personnelles d’un envoi s’effacent une fois l’envoi terminé.' }, back),
        );
      throw failure;
    }
  });

  // What a mailing of the signed-in account printed (inline, same origin): page 1 of its own PDF, or its letter rendered again.
  router.get('/envois/:id/apercu', kit.allowed('mailings'), async (ctx) => {
    const session = ctx.state.session!;
    const { error } = mailingIdParams.validate({ id: ctx.params.id });
    const pdf = error ? undefined : await printedLetterPdf(kit.deps, session.user!.accountId, ctx.params.id!);
    if (!pdf)
      return kit.page(
        ctx,
        404,
        infoPage(
          session,
          'Aperçu introuvable',
          { kind: 'error', text: 'Aucun envoi de ce compte n’a cet identifiant, ou ses données ont été effacées.' },
          { href: `${BASE}/envois`, text: 'Envois' },
        ),
      );
    answerFramedPdf(ctx, `apercu-${ctx.params.id}.pdf`, pdf);
  });

  // A proof for the signed-in account's own mailings only; the API's signed links are not needed here.
  router.get('/envois/:id/preuves/:kind', kit.allowed('mailings'), async (ctx) => {
    const session = ctx.state.session!;
    const { value, error } = proofParams.validate({ id: ctx.params.id, kind: ctx.params.kind });
    const pdf = error ? undefined : await proofPdf(db, value.id as string, value.kind as ProofKind, session.user!.accountId);
    if (!pdf)
      return kit.page(
        ctx,
        404,
        infoPage(
          session,
          'Preuve introuvable',
          { kind: 'error', text: 'Aucun envoi de ce compte n’a cette preuve (ou pas encore).' },
          { href: `${BASE}/envois`, text: 'Envois' },
        ),
      );
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `attachment; filename="${value.kind}-${value.id}.pdf"`);
    ctx.body = pdf;
  });
}
