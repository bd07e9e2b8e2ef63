import Joi from 'joi';
import { batchSchema } from './batches.js';
import { EVENT_TYPES } from '../../domain/webhooks/event-types.js';
import { PROOF_KINDS } from '../../domain/mailings/states.js';
import { mailingSchema } from './mailings.js';

/** SPEC.md "Request received": the body of every webhook delivery (docs/webhooks.md). */
export const webhookEventSchema = Joi.object({
  id: Joi.string().guid().required().description('Event identifier, the same on every retry and after a workflow reset: deduplicate on it'),
  type: Joi.string()
    .valid(...EVENT_TYPES)
    .required(),
  created: Joi.string().isoDate().required().description('Event time, ISO 8601 UTC with milliseconds'),
  livemode: Joi.boolean().required().description('False in the sandbox'),
  data: Joi.object({
    mailing: mailingSchema.description('The shipment as GET /v1/mailings/{id} returns it, without document, in its state at event time; absent from ping'),
    proof: Joi.object({
      kind: Joi.string()
        .valid(...PROOF_KINDS)
        .required(),
    }).description('Only for mailing.proof_available'),
    batch: batchSchema.description('Only for mailing_batch.completed (sent only to endpoints whose event filter names it): the batch, every mailing final'),
    details: Joi.object({
      reason: Joi.string()
        .required()
        .description(
          "Why the mailing ended in error, e.g. the postal operator's reason for refusing the letter; or why a letter whose returns are handled digitally came back",
        ),
    }).description(
      'Only for mailing.error, when the reason is known (the mailing is then refunded), and for mailing.returned of a simple letter with options.returnedMail digital',
    ),
    endpoint: Joi.object({
      id: Joi.string().guid().required(),
      url: Joi.string().uri().required(),
      events: Joi.array()
        .items(Joi.string().valid(...EVENT_TYPES))
        .required()
        .description('The event filter; empty: every event type'),
    }).description('Only for ping: the endpoint tried, as declared'),
  }).required(),
}).label('WebhookEvent');
