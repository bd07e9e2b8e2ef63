import type Router from '@koa/router';
import type { Context } from 'koa';
import { InvalidRequest } from '../../domain/errors.js';
import { accountServiceRequests, insertServiceRequest, type ServiceRequestInput } from '../../domain/requests/service-requests.js';
import { serviceRequestInputSchema, serviceRequestListQuery } from '../../api/schemas/requests.js';
import type { WebKit } from '../kit.js';
import { filledFields, filledQuery, frenchError } from '../forms.js';
import { BASE, type Message } from '../pages/layout.js';
import { REQUEST_LABELS, requestsPage, type RequestForm } from '../pages/requests.js';

const FIRST_PAGE = { limit: 20 };
const FIELDS = ['kind', 'title', 'description', 'example', 'useCase', 'contactEmail'] as const;

/** Service requests: the same domain functions and Joi schema as POST and GET /v1/requests (free, never billed). */
export function requestRoutes(router: Router, kit: WebKit): void {
  const { db, config } = kit.deps;

  async function show(ctx: Context, status: number, page: { limit: number; cursor?: string }, extra: { form?: RequestForm; m?: Message } = {}): Promise<void> {
    const session = ctx.state.session!;
    const list = await accountServiceRequests(db, config.secretKey, session.user!.accountId, page);
    kit.page(ctx, status, requestsPage(session, { requests: list.data, nextCursor: list.nextCursor, ...extra }));
  }

  router.get('/demandes', kit.allowed('requests'), async (ctx) => {
    const { cursor, sent, ...rest } = filledQuery(ctx);
    const notice: Message | undefined = sent ? { kind: 'notice', text: 'Demande envoyée : elle apparaît ci-dessous avec son statut.' } : undefined;
    const { value, error } = serviceRequestListQuery.validate({ ...rest, cursor });
    try {
      if (error) return await show(ctx, 400, FIRST_PAGE, { m: { kind: 'error', text: frenchError(error, { cursor: 'Page', limit: 'Nombre par page' }) } });
      await show(ctx, 200, value as { limit: number; cursor?: string }, { m: notice });
    } catch (failure) {
      if (failure instanceof InvalidRequest)
        return show(ctx, 400, FIRST_PAGE, { m: { kind: 'error', text: 'Ce lien de page n’est plus valide : revenez à la première page de la liste.' } });
      throw failure;
    }
  });

  router.post('/demandes', kit.allowed('requests'), async (ctx) => {
    const form = Object.fromEntries(FIELDS.map((name) => [name, kit.form(ctx, name)])) as RequestForm;
    const { value, error } = serviceRequestInputSchema.validate(filledFields(ctx, FIELDS));
    if (error) return show(ctx, 400, FIRST_PAGE, { form, m: { kind: 'error', text: frenchError(error, REQUEST_LABELS) } });
    const accountId = ctx.state.session!.user!.accountId;
    await db.transaction((trx) => insertServiceRequest(trx, accountId, value as ServiceRequestInput));
    ctx.redirect(`${BASE}/demandes?sent=1`);
  });
}
