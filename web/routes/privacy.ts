import type Router from '@koa/router';
import { aiConsent } from '../../domain/access/ai-consent.js';
import { aiProvider, configuredHost, PROCESSORS } from '../../domain/privacy/processors.js';
import type { WebKit } from '../kit.js';
import { privacyPage } from '../pages/privacy.js';

/** `/dashboard/confidentialite` (issue 53): the sub-processors, rendered from domain/privacy/processors.ts, and the account's AI setting. */
export function privacyRoutes(router: Router, kit: WebKit): void {
  const { db, config } = kit.deps;
  router.get('/confidentialite', kit.allowed('privacy'), async (ctx) => {
    const session = ctx.state.session!;
    kit.page(
      ctx,
      200,
      privacyPage(session, {
        processors: PROCESSORS.map((processor) => ({ processor, host: configuredHost(config, processor.id) })),
        ai: { consent: await aiConsent(db, session.user!.accountId), provider: aiProvider(config) },
      }),
    );
  });
}
