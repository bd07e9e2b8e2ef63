import type Router from '@koa/router';
import type { Context } from 'koa';
import { Unavailable } from '../../domain/errors.js';
import { DELIVERY_RETENTION_DAYS, deliveryDetail, deliveryPage as loadDeliveryPage, resendDelivery } from '../../domain/webhooks/deliveries.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
  MAX_WEBHOOK_URL_LENGTH,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
  type EndpointSummary,
} from '../../domain/webhooks/endpoints.js';
import { WebhookEndpointError } from '../../domain/webhooks/endpoint-error.js';
import { pingEndpoint } from '../../domain/webhooks/events.js';
import type { WebKit } from '../kit.js';
import { queryText } from '../forms.js';
import { infoPage, type Message } from '../pages/layout.js';
import { deleteEndpointPage, DELIVERIES, deliveriesPage, deliveryPage, WEBHOOKS, webhooksPage, type EndpointForm } from '../pages/webhooks.js';
import { count } from '../pages/format.js';

/** Deliveries per page of the log. */
const DELIVERIES_PER_PAGE = 50;

/** The domain's refusals, in French, with the status of the page that says so. */
const REFUSALS: Record<string, [number, string]> = {
  invalid_url: [400, `Cette adresse n’est pas une URL valide (${count(MAX_WEBHOOK_URL_LENGTH)} caractères au plus, sans identifiants).`],
  https_required: [400, 'L’adresse doit commencer par https:// : seules les adresses HTTPS sont appelées.'],
  port_not_allowed: [400, 'Seuls les ports 443 et 8443 sont appelés.'],
  unresolvable_host: [400, 'Ce nom d’hôte ne se résout pas : vérifiez l’adresse.'],
  private_address: [400, 'Cette adresse mène à un réseau privé ou local : seules les adresses publiques sont appelées.'],
  invalid_events: [400, 'Un des types d’événements choisis n’existe pas.'],
  limit_reached: [409, `Vous avez déjà ${count(MAX_WEBHOOK_ENDPOINTS)} adresses, le maximum : supprimez-en une pour en déclarer une autre.`],
  not_found: [
    404,
    `Introuvable : aucune adresse ou livraison de ce compte ne porte cet identifiant (l’historique est gardé ${count(DELIVERY_RETENTION_DAYS)} jours).`,
  ],
  endpoint_disabled: [409, 'Cette adresse est désactivée : réactivez-la d’abord.'],
  endpoint_deleted: [409, 'L’adresse de cette livraison a été supprimée : rien ne peut lui être renvoyé.'],
  invalid_cursor: [400, 'Ce lien de pagination n’est pas valide : revenez à la première page du journal.'],
  account_closing: [409, 'La clôture de ce compte est confirmée : ses webhooks sont arrêtés tant qu’elle n’est pas annulée.'],
};

/** A refusal of the domain or an unreachable workflow service, as a message and status; anything else is rethrown (500). */
function refusal(error: unknown): { status: number; m: Message } {
  if (error instanceof WebhookEndpointError) {
    const [status, text] = REFUSALS[error.code] ?? [400, 'Requête refusée.'];
    return { status, m: { kind: 'error', text } };
  }
  if (error instanceof Unavailable)
    return { status: 503, m: { kind: 'error', text: 'Le service d’envoi est momentanément injoignable ; rien n’a été fait. Réessayez dans un instant.' } };
  throw error;
}

/** The webhooks of the developer space: endpoints (create, test, disable, rotate, delete) and the delivery log. */
export function webhookRoutes(router: Router, kit: WebKit): void {
  const { db, config } = kit.deps;
  const account = (ctx: Context): string => ctx.state.session!.user!.accountId;

  /** Runs an action; a refusal becomes a page that says why, with a way back. */
  async function act(ctx: Context, back: string, action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      const { status, m } = refusal(error);
      kit.page(ctx, status, infoPage(ctx.state.session, 'Action refusée', m, { href: back, text: 'Retour' }));
    }
  }

  async function listPage(ctx: Context, status: number, extra: { m?: Message; form?: EndpointForm } = {}): Promise<void> {
    const session = ctx.state.session!;
    const endpoints = await listWebhookEndpoints(db, account(ctx));
    const flash = await kit.takeFlash(session);
    const shownSecret = queryText(ctx, 'adresse');
    const secretFor = endpoints.find((e) => e.id === shownSecret);
    const ping = queryText(ctx, 'essai');
    const pinged = /^[0-9a-f-]{36}$/.test(ping) ? ping : undefined;
    kit.page(
      ctx,
      status,
      webhooksPage(session, {
        endpoints,
        // Shown once: the flash is taken (and erased) by this page.
        secret: flash?.startsWith('whsec_') ? { value: flash, endpoint: secretFor } : undefined,
        pinged,
        ...extra,
      }),
    );
  }

  router.get('/webhooks', kit.allowed('webhooks'), (ctx) => listPage(ctx, 200));

  router.post('/webhooks', kit.allowed('webhooks'), async (ctx) => {
    const form: EndpointForm = { url: kit.form(ctx, 'url').trim(), env: kit.form(ctx, 'env'), events: ctx.state.form!.getAll('events') };
    if (!form.url) return listPage(ctx, 400, { form, m: { kind: 'error', text: 'Indiquez l’adresse HTTPS à appeler.' } });
    if (form.env !== 'test' && form.env !== 'live')
      return listPage(ctx, 400, { form, m: { kind: 'error', text: 'Choisissez l’environnement : test ou production.' } });
    let created: { id: string; secret: string };
    try {
      // The same domain function as `admin webhook create`.
      created = await createWebhookEndpoint(db, config, { accountId: account(ctx), url: form.url, env: form.env, events: form.events }, kit.actor(ctx));
    } catch (error) {
      const { status, m } = refusal(error);
      return listPage(ctx, status, { form, m });
    }
    await kit.putFlash(ctx.state.session!, created.secret);
    ctx.redirect(`${WEBHOOKS}?adresse=${created.id}`);
  });

  const endpointAction = (path: string, action: (ctx: Context, id: string) => Promise<string>): void => {
    router.post(`/webhooks/:id/${path}`, kit.allowed('webhooks'), (ctx) =>
      act(ctx, WEBHOOKS, async () => {
        ctx.redirect(await action(ctx, ctx.params.id ?? ''));
      }),
    );
  };
  endpointAction('essai', async (ctx, id) => {
    const { deliveryId } = await pingEndpoint(kit.deps, { id, account_id: account(ctx) });
    return `${WEBHOOKS}?essai=${deliveryId}`;
  });
  endpointAction('desactiver', async (ctx, id) => {
    await setWebhookEndpointEnabled(db, account(ctx), id, false, kit.actor(ctx));
    return WEBHOOKS;
  });
  endpointAction('reactiver', async (ctx, id) => {
    await setWebhookEndpointEnabled(db, account(ctx), id, true, kit.actor(ctx));
    return WEBHOOKS;
  });
  endpointAction('secret', async (ctx, id) => {
    const { secret } = await rotateWebhookSecret(db, config, account(ctx), id, kit.actor(ctx));
    await kit.putFlash(ctx.state.session!, secret);
    return `${WEBHOOKS}?adresse=${id}`;
  });
  endpointAction('supprimer', async (ctx, id) => {
    await deleteWebhookEndpoint(db, account(ctx), id, kit.actor(ctx));
    return WEBHOOKS;
  });
  router.get('/webhooks/:id/supprimer', kit.allowed('webhooks'), (ctx) =>
    act(ctx, WEBHOOKS, async () => {
      const endpoint: EndpointSummary = await findWebhookEndpoint(db, account(ctx), ctx.params.id ?? '');
      kit.page(ctx, 200, deleteEndpointPage(ctx.state.session!, endpoint));
    }),
  );

  router.get('/webhooks/livraisons', kit.allowed('webhooks'), async (ctx) => {
    const session = ctx.state.session!;
    const endpoints = await listWebhookEndpoints(db, account(ctx));
    const endpointId = queryText(ctx, 'adresse') || undefined;
    const cursor = queryText(ctx, 'apres') || undefined;
    try {
      const { deliveries, nextCursor } = await loadDeliveryPage(db, config.secretKey, account(ctx), { limit: DELIVERIES_PER_PAGE, cursor, endpointId });
      kit.page(ctx, 200, deliveriesPage(session, { deliveries, nextCursor, endpoints, endpointId }));
    } catch (error) {
      const { status, m } = refusal(error);
      kit.page(ctx, status, deliveriesPage(session, { deliveries: [], nextCursor: null, endpoints, m }));
    }
  });
  router.get('/webhooks/livraisons/:id', kit.allowed('webhooks'), (ctx) =>
    act(ctx, DELIVERIES, async () => {
      kit.page(ctx, 200, deliveryPage(ctx.state.session!, await deliveryDetail(db, account(ctx), ctx.params.id ?? '')));
    }),
  );
  router.post('/webhooks/livraisons/:id/renvoyer', kit.allowed('webhooks'), (ctx) =>
    act(ctx, `${DELIVERIES}/${encodeURIComponent(ctx.params.id ?? '')}`, async () => {
      const { deliveryId } = await resendDelivery(kit.deps, account(ctx), ctx.params.id ?? '');
      ctx.redirect(`${DELIVERIES}/${deliveryId}`);
    }),
  );
}
