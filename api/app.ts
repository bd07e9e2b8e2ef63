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

export function createApp(services: Services): Koa {
  // Loaded and checked now: a broken catalogue stops the start rather than a request.
  catalogue();
  const app = new Koa();
  app.context.services = services;
  // Behind a reverse proxy, the client's address (failed-authentication limit, logs) is the forwarded one.
  app.proxy = services.config.trustProxy;
  // Errors are answered in the SPEC.md shape; Koa's default printer would only add noise.
  app.silent = true;

  // Every method Node parses counts as implemented: a known path answers 405 to any it does not take.
  const router = new Router({ methods: [...METHODS] });
  for (const route of routes) {
    router.register(koaPath(route.path), [route.method], chain(route), { name: route.operationId });
  }

  // Stripe's calls: a route of its own, not an operation of the API (not in the OpenAPI document).
  router.register('/stripe/webhook', ['POST'], [stripeWebhook], { name: 'stripeWebhook' });

  app.use(requestLog);
  app.use(errorBody);
  app.use(router.routes());
  // A known path with another method: 405 with its Allow header (the error shape comes from errorBody).
  app.use(router.allowedMethods());
  return app;
}
