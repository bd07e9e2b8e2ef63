import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { Db } from '../db/knex.js';
import type { Config } from '../lib/config.js';
import { logger } from '../lib/logger.js';
import type { ElectronicProvider } from '../activities/lre/electronic-provider.js';
import { electronicProvider } from '../activities/lre/provider.js';
import { lreReference, rememberLreReference } from '../domain/mailings/electronic-sending.js';
import { ApiError } from './errors.js';
import { MAX_BODY_BYTES } from './middleware/body.js';

/** The provider LRE_PROVIDER names, one per process (its client keeps its connections). */
let provider: { db: Db; config: Config; provider: ElectronicProvider } | undefined;
function providerOf(db: Db, config: Config): ElectronicProvider {
  if (provider?.db !== db || provider.config !== config)
    provider = {
      db,
      config,
      provider: electronicProvider(db, config, { reference: (id) => lreReference(db, id), remember: (id, ref) => rememberLreReference(db, id, ref) }),
    };
  return provider.provider;
}

/**
 * POST /partners/ar24/callbacks: AR24's callbacks (docs/electronic-registered-letters.md §6), outside
 * /v1 and the OpenAPI document (AR24 is its only client), placed as POST /stripe/webhook is. A form or
 * JSON body naming a mail (`id_mail`, `id_user`, `status`); the provider layer finds our mailing
 * (callbackMailing: from `ref_dossier`, or by reading the mail), and its workflow is told to read the
 * letter's state again (the `electronicHint` signal). Only a hint: the status in the body is never
 * trusted, whoever sent it; the provider's answer when asked moves the mailing. 200 for a mail that
 * is none of ours too (AR24 retries until it gets a 200); 503 when the workflow cannot be told, so
 * AR24 sends it again (the polling would find the news anyway).
 */
export async function ar24Callback(ctx: Context): Promise<void> {
  const { config, db, domain } = ctx.services;
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES });
  } catch {
    throw new ApiError(400, 'invalid_request', 'The request body could not be read.');
  }
  let mailingId: string | undefined;
  try {
    mailingId = await providerOf(db, config).callbackMailing(raw.toString('utf8'));
  } catch (error) {
    // The provider could not say which mail: the workflow's polling finds the news meanwhile.
    logger.warn({ err: error }, 'AR24 callback: the mail it names could not be read; left to polling');
  }
  let hinted = false;
  if (mailingId && /^[0-9a-f-]{36}$/i.test(mailingId)) {
    try {
      hinted = await domain.workflows.mailings.hint(mailingId);
    } catch (error) {
      logger.warn({ err: error, shipmentId: mailingId }, 'AR24 callback: the mailing workflow could not be told');
      throw new ApiError(503, 'service_unavailable', 'The callback could not be passed on; please send it again.');
    }
  }
  logger.info({ shipmentId: mailingId ?? null, hinted }, 'AR24 callback');
  ctx.status = 200;
  ctx.body = { received: true };
}
