import { isLiveEnabled } from '../../domain/access/accounts.js';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { productionAccessInputSchema, submitProductionAccess, type ProductionAccessInput } from '../../domain/access/production-access.js';
import { latestProductionAccess } from '../../domain/access/production-requests.js';
import type { WebKit } from '../kit.js';
import { filledFields, frenchError } from '../forms.js';
import { BASE, type Message } from '../pages/layout.js';
import { PRODUCTION_LABELS, productionPage, type ProductionForm } from '../pages/production.js';

const FIELDS = ['siret', 'legalName', 'address', 'useCase'] as const;

/** Production access: the request (SIRET checked in the directory), its wait for an operator, production open. */
export function productionRoutes(router: Router, kit: WebKit): void {
  const { db } = kit.deps;

  async function show(ctx: Context, status: number, extra: { form?: ProductionForm; m?: Message } = {}): Promise<void> {
    const session = ctx.state.session!;
    const accountId = session.user!.accountId;
    const liveEnabled = await isLiveEnabled(db, accountId);
    const request = await latestProductionAccess(db, accountId);
    kit.page(ctx, status, productionPage(session, { liveEnabled, request, ...extra }));
  }

  router.get('/production', kit.allowed('production'), (ctx) => show(ctx, 200));

  router.post('/production', kit.allowed('production'), async (ctx) => {
    const form = Object.fromEntries(FIELDS.map((name) => [name, kit.form(ctx, name)])) as unknown as ProductionForm;
    const refuse = (status: number, text: string, refill = form): Promise<void> => show(ctx, status, { form: refill, m: { kind: 'error', text } });
    const { value, error } = productionAccessInputSchema.validate(filledFields(ctx, FIELDS));
    if (error) return refuse(400, frenchError(error, PRODUCTION_LABELS));
    const result = await submitProductionAccess(kit.deps, ctx.state.session!.user!.accountId, value as ProductionAccessInput, kit.actor(ctx));
    switch (result.kind) {
      case 'opened':
      case 'submitted':
      case 'waiting_directory':
        return ctx.redirect(`${BASE}/production`);
      case 'invalid_siret':
        return refuse(
          400,
          result.reason === 'format'
            ? 'Le SIRET compte exactement 14 chiffres (les espaces sont acceptés).'
            : 'Ce numéro n’est pas un SIRET valide : sa clé de contrôle ne correspond pas. Vérifiez-le.',
        );
      case 'unknown_company':
        return refuse(422, `Aucun établissement ne porte le SIRET ${form.siret.trim()} dans l’annuaire des entreprises. Vérifiez le numéro.`);
      case 'closed_company':
        return refuse(
          422,
          `L’établissement ${form.siret.trim()} (${result.company.name}) est fermé selon l’annuaire des entreprises : indiquez le SIRET d’un établissement actif.`,
        );
      case 'name_mismatch':
        return refuse(
          422,
          `La raison sociale « ${form.legalName.trim()} » ne correspond pas à celle de l’annuaire pour ce SIRET : « ${result.company.name} ». Nous l’avons reprise ci-dessous ; vérifiez et renvoyez.`,
          { ...form, legalName: result.company.name },
        );
      case 'already_pending':
        return refuse(409, 'Une demande est déjà en attente pour ce compte : un opérateur va l’examiner.');
      case 'already_open':
        return refuse(409, 'La production est déjà ouverte pour ce compte.');
    }
  });
}
