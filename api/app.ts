import Koa from 'koa';
import { METHODS } from 'node:http';
import Router from '@koa/router';
import type { Services } from './context.js';
import { routes } from './routes/index.js';
import type { Route } from './routes/route.js';
import { errorBody } from './middleware/errors.js';
import { requestLog } from './middleware/request-log.js';
import { authenticate } from './middleware/authenticate.js';
import { jsonBody } from './middleware/body.js';
import { idempotency } from './middleware/idempotency.js';
import { validateThenHandle } from './middleware/validate.js';
import { catalogue } from '../domain/catalogue/catalogue.js';
import { stripeWebhook } from './stripe-webhook.js';
import { ar24Callback } from './ar24-callback.js';
import { trustProxies } from '../lib/net/proxies.js';

const koaPath = (openApiPath: string): string => openApiPath.replace(/\{(\w+)\}/g, ':$1');

/**
 * One route's chain, read left to right: authenticate (key, rate limit, sandbox quota, scope) →
 * read the JSON body → idempotency → validate → handler. Public routes skip authentication.
 */
function chain(route: Route): Koa.Middleware[] {
  const steps: Koa.Middleware[] = [];
  if (route.scope) steps.push(authenticate(route.scope));
  if (route.method === 'POST') steps.push(jsonBody, idempotency);
  steps.push(validateThenHandle(route));
  return steps;
}

/** Every method Node parses counts as implemented: a known path answers 405 to any it does not take. */
const IMPLEMENTED_METHODS = [...METHODS];

/** The resource a path names: its segment after /v1 (`v1/catalogue`, `v1/mailings`…), or its first one outside /v1 (`health`, `docs`, `stripe`). */
function resourceOf(path: string): string {
  const second = path.indexOf('/', 1);
  const first = second < 0 ? path.slice(1) : path.slice(1, second);
  if (second < 0 || (first !== 'v1' && first !== 'V1')) return first;
  const third = path.indexOf('/', second + 1);
  return third < 0 ? path.slice(1) : path.slice(1, third);
}

/**
 * One @koa/router per resource, chosen by the path's resource: a router tests every route it holds
 * against each request, and a resource holds one to five. Paths are matched without regard to case,
 * as @koa/router does. A path no route takes passes on: to the 405 of its methods, or errorBody's 404.
 */
function routeByResource(all: readonly Route[]): Koa.Middleware {
  const routers = new Map<string, Router>();
  const routerOf = (template: string): Router => {
    const resource = resourceOf(template).toLowerCase();
    let router = routers.get(resource);
    if (!router) routers.set(resource, (router = new Router({ methods: IMPLEMENTED_METHODS })));
    return router;
  };
  for (const route of all) routerOf(route.path).register(koaPath(route.path), [route.method], chain(route), { name: route.operationId });
  // Stripe's calls: a route of its own, not an operation of the API (not in the OpenAPI document).
  routerOf('/stripe/webhook').register('/stripe/webhook', ['POST'], [stripeWebhook], { name: 'stripeWebhook' });
  // AR24's callbacks, likewise: a hint to an electronic mailing's workflow (api/ar24-callback.ts).
  routerOf('/partners/ar24/callbacks').register('/partners/ar24/callbacks', ['POST'], [ar24Callback], { name: 'ar24Callback' });
  const dispatch = new Map<string, Koa.Middleware>();
  for (const [resource, router] of routers) dispatch.set(resource, router.routes() as Koa.Middleware);
  return function routeToResource(ctx, next) {
    const resource = resourceOf(ctx.path);
    // Paths are matched whatever their case, as @koa/router does; most come in lower case already.
    const router = dispatch.get(resource) ?? dispatch.get(resource.toLowerCase());
    return router ? router(ctx, next) : next();
  };
}

export function createApp(services: Services): Koa {
  // Loaded and checked now: a broken catalogue stops the start rather than a request.
  catalogue();
  const app = new Koa();
  app.context.services = services;
  // Behind reverse proxies, the client's address (failed-authentication limit, logs) is the one our proxies forwarded.
  trustProxies(app, services.config.trustedProxyHops);
  // Errors are answered in the SPEC.md shape; Koa's default printer would only add noise.
  app.silent = true;

  app.use(requestLog);
  app.use(errorBody);
  app.use(routeByResource(routes));
  // A known path with another method: 405 with its Allow header (the error shape comes from errorBody).
  // It reads the routes whose path matched (ctx.matched, set by the resource's router), whichever router that was.
  app.use(new Router({ methods: IMPLEMENTED_METHODS }).allowedMethods() as Koa.Middleware);
  return app;
}
