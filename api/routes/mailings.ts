import type { Context } from 'koa';
import Joi from 'joi';
import { notFound } from '../../domain/errors.js';
import { createMailing } from '../../domain/mailings/create.js';
import type { Mailing, MailingViewRow } from '../../domain/mailings/mailing.js';
import { listMailings } from '../../domain/mailings/listing.js';
import { erasedProofHash, proofErased, proofHash, proofPdf } from '../../domain/mailings/proofs.js';
import { eraseMailingPersonalData } from '../../domain/privacy/erasure.js';
import { PROOF_LABELS, type ProofKind, type MailingStatus } from '../../domain/mailings/states.js';
import { advanceMailing, cancelMailing, type OwnMailingRow } from '../../domain/mailings/updates.js';
import { openToken, sealToken } from '../../lib/crypto.js';
import {
  mailingIdParams,
  mailingListQuery,
  mailingRequestSchema,
  proofLinkSchema,
  proofParams,
  mailingListSchema,
  mailingSchema,
  testAdvanceSchema,
  type MailingRequest,
  type TestAdvance,
} from '../schemas/mailings.js';
import { defineRoute } from './route.js';
import { tooManyFailures } from '../errors.js';
import { answerSerializedJson, caller, deps, publicOrigin } from '../respond.js';

/**
 * The update id of a call with an Idempotency-Key: Temporal runs an update id once per workflow, so
 * a retry whose stored answer was lost (a crash after the move) cannot move the mailing twice.
 */
function updateId(ctx: Context, name: 'advance' | 'cancel'): string | undefined {
  const key = ctx.state.idempotency?.key;
  return key === undefined ? undefined : `${name}:${key}`;
}

/** Proof links are valid this long (DESIGN.md §2: 5 minutes). */
export const PROOF_LINK_SECONDS = 300;

/** The account's mailing in the key's environment (test keys see test mailings only). */
async function ownMailing(ctx: Context, id: string): Promise<{ row: MailingViewRow; shipment: Mailing }> {
  const found = await ctx.services.mailings.find(id);
  const auth = ctx.state.auth!;
  if (!found || found.row.account_id !== auth.accountId || found.row.test !== (auth.mode === 'test')) throw notFound(`No mailing ${id}.`);
  return found;
}

/** ownMailing's row, as the domain's updates read the mailing they move. */
const ownRow =
  (ctx: Context): OwnMailingRow =>
  async (id) =>
    (await ownMailing(ctx, id)).row;

export const mailingRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, MailingRequest>({
    operationId: 'createMailing',
    method: 'POST',
    path: '/v1/mailings',
    tag: 'Mailings',
    summary: 'Post a catalogue or free-form letter (simple, registered, or registered with acknowledgment of receipt)',
    description:
      "Addresses are checked against the postal norm and the official commune list (422 address_invalid); the recipient's number and street against the national address base (strict by default: 422 address_invalid with details.suggestions; options.addressCheck lenient, or the base unreachable: posted as given with a warning), and printed in the NF Z10-011 form. " +
      "A recipient given as { siret, name? } is the establishment's registered address from the business directory (422 recipient_siret_unknown or recipient_siret_closed; 502 when the directory fails). Live keys are debited in the same transaction that records the shipment (402 otherwise, nothing created). " +
      'A test key simulates and does not bill; its shipment moves only with POST /v1/test/mailings/{id}/advance.',
    scope: 'mailings:write',
    body: mailingRequestSchema,
    success: { status: 201, description: 'Shipment', schema: mailingSchema },
    errors: [400, 401, 402, 403, 404, 409, 413, 422, 429, 500, 502, 503],
    async handler(ctx, { body }) {
      const mailing = await createMailing(deps(ctx), caller(ctx), body);
      ctx.status = 201;
      ctx.set('Location', `/v1/mailings/${mailing.id}`);
      ctx.body = mailing;
    },
  }),
  defineRoute<Record<string, never>, { limit: number; cursor?: string; reference?: string; status?: MailingStatus; batch?: string }>({
    operationId: 'listMailings',
    method: 'GET',
    path: '/v1/mailings',
    tag: 'Mailings',
    summary: 'List mailings, most recent first (test keys list test mailings, live keys live ones)',
    scope: 'mailings:read',
    query: mailingListQuery,
    success: { status: 200, description: 'List envelope of Shipment', schema: mailingListSchema },
    errors: [400, 401, 403, 429, 500],
    async handler(ctx, { query }) {
      const { db, config } = deps(ctx);
      const auth = ctx.state.auth!;
      ctx.body = await listMailings(db, config.secretKey, { ...query, accountId: auth.accountId, test: auth.mode === 'test' });
    },
  }),
  defineRoute<{ id: string }>({
    operationId: 'getMailing',
    method: 'GET',
    path: '/v1/mailings/{id}',
    tag: 'Mailings',
    summary: 'A mailing with its history, proofs and letter content',
    scope: 'mailings:read',
    params: mailingIdParams,
    success: { status: 200, description: 'Shipment', schema: mailingSchema },
    errors: [400, 401, 403, 404, 429, 500],
    async handler(ctx, { params }) {
      const { shipment: mailing } = await ownMailing(ctx, params.id);
      answerSerializedJson(ctx, ctx.services.mailings.json(mailing));
    },
  }),
  defineRoute<{ id: string; kind: ProofKind }>({
    operationId: 'getMailingProof',
    method: 'GET',
    path: '/v1/mailings/{id}/proofs/{kind}',
    tag: 'Mailings',
    summary: 'A temporary download link (5 minutes) for a proof: filing, delivery or return',
    description:
      '404 until the proof is available (mailing.proof_available announces it). Once the mailing is erased (erasedAt), 404 proof_erased with details { kind, sha256 }: the PDF is gone, its SHA-256 stays to check a copy you kept.',
    scope: 'mailings:read',
    params: proofParams,
    success: { status: 200, description: 'ProofLink', schema: proofLinkSchema },
    errors: [400, 401, 403, 404, 429, 500, 502],
    async handler(ctx, { params }) {
      const { shipment: mailing } = await ownMailing(ctx, params.id);
      if (!mailing.proofs.some((p) => p.kind === params.kind))
        throw notFound(`The ${PROOF_LABELS[params.kind].toLowerCase()} of mailing ${params.id} is not available yet.`);
      const hash = await proofHash(deps(ctx).db, params.id, params.kind);
      if (hash?.erased) throw proofErased(params.id, params.kind, hash.sha256);
      const expiresAt = new Date(Date.now() + PROOF_LINK_SECONDS * 1000);
      const token = sealToken({ id: params.id, kind: params.kind, exp: expiresAt.getTime() }, deps(ctx).config.secretKey, 'proof-link');
      ctx.body = {
        kind: params.kind,
        url: `${publicOrigin(ctx)}/v1/proof-files/${token}`,
        expiresAt: expiresAt.toISOString(),
        ...(hash && { sha256: hash.sha256 }),
      };
    },
  }),
  defineRoute<{ id: string }, Record<string, never>, undefined>({
    operationId: 'cancelMailing',
    method: 'POST',
    path: '/v1/mailings/{id}/cancel',
    tag: 'Mailings',
    summary: 'Cancel a mailing that is still paid (not yet filed); the amount is credited back',
    description: 'Beyond SPEC.md, non-breaking. 409 once the letter is filed with the postal operator.',
    scope: 'mailings:write',
    params: mailingIdParams,
    success: { status: 200, description: 'Shipment', schema: mailingSchema },
    errors: [400, 401, 403, 404, 409, 429, 500, 503],
    async handler(ctx, { params }) {
      await cancelMailing(deps(ctx), ownRow(ctx), params.id, updateId(ctx, 'cancel'));
      ctx.services.mailings.forget(params.id);
      ctx.body = (await ownMailing(ctx, params.id)).shipment;
    },
  }),
  defineRoute<{ id: string }, Record<string, never>, undefined>({
    operationId: 'eraseMailing',
    method: 'POST',
    path: '/v1/mailings/{id}/erase',
    tag: 'Mailings',
    summary: "Erase a final mailing's personal data: the recipient, the letter's content, the proofs' PDFs",
    description:
      'Beyond SPEC.md, non-breaking. Once the mailing is final (409 mailing_not_final before). The answer is the erased mailing: erasedAt set, recipient ["(effacé)"], document with an empty text (title "(effacé)" unless a catalogue letter); its amount, events, tracking number, reference, proofs (listed, with 404 proof_erased for their PDFs) and SHA-256 hashes stay. Erasing an erased mailing answers it as it is. Done anyway after the account\'s retention period (docs/retention.md).',
    scope: 'mailings:write',
    params: mailingIdParams,
    success: { status: 200, description: 'Shipment, erased', schema: mailingSchema },
    errors: [400, 401, 403, 404, 409, 429, 500],
    async handler(ctx, { params }) {
      const auth = ctx.state.auth!;
      await eraseMailingPersonalData(deps(ctx).db, params.id, { accountId: auth.accountId, test: auth.mode === 'test', via: 'api' });
      ctx.services.mailings.forget(params.id);
      ctx.body = (await ownMailing(ctx, params.id)).shipment;
    },
  }),
  defineRoute<{ id: string }, Record<string, never>, TestAdvance | undefined>({
    operationId: 'advanceTestMailing',
    method: 'POST',
    path: '/v1/test/mailings/{id}/advance',
    tag: 'Mailings',
    summary: 'Move a test mailing to its next step, a given step, or returned / error',
    description:
      'Test keys and test mailings only (403 test_only). The same webhook events as in production are sent. 409 when the mailing is final or the step is not ahead.',
    scope: 'mailings:write',
    params: mailingIdParams,
    body: testAdvanceSchema.allow(null),
    success: { status: 200, description: 'Shipment after the move', schema: mailingSchema },
    errors: [400, 401, 403, 404, 409, 413, 422, 429, 500],
    async handler(ctx, { params, body }) {
      await advanceMailing(deps(ctx), ctx.state.auth!, ownRow(ctx), params.id, body ?? {}, updateId(ctx, 'advance'));
      ctx.services.mailings.forget(params.id);
      ctx.body = (await ownMailing(ctx, params.id)).shipment;
    },
  }),
  defineRoute<{ token: string }>({
    operationId: 'downloadProof',
    method: 'GET',
    path: '/v1/proof-files/{token}',
    tag: 'Mailings',
    summary: 'Download a proof PDF through the link of GET /v1/mailings/{id}/proofs/{kind} (the link is the credential)',
    scope: null,
    params: Joi.object({ token: Joi.string().max(500).required() }),
    success: { status: 200, description: 'application/pdf', contentType: 'application/pdf' },
    // 503: the document store that holds it cannot be reached (DOCUMENT_STORE=s3).
    errors: [404, 429, 500, 503],
    async handler(ctx, { params }) {
      const { failedProofLinks } = ctx.services.guard;
      if (!failedProofLinks.allows(ctx.ip)) throw tooManyFailures(ctx, 'Too many proof links that do not open from this address; retry in a minute.');
      const link = openToken<{ id: string; kind: ProofKind; exp: number }>(params.token, deps(ctx).config.secretKey, 'proof-link');
      if (!link || link.exp < Date.now()) {
        failedProofLinks.recordFailure(ctx.ip);
        throw notFound('This proof link is unknown or has expired; ask for a new one.');
      }
      const pdf = await proofPdf(deps(ctx).db, link.id, link.kind);
      if (!pdf) {
        const sha256 = await erasedProofHash(deps(ctx).db, link.id, link.kind);
        throw sha256 ? proofErased(link.id, link.kind, sha256) : notFound('No such proof.');
      }
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', `inline; filename="${link.kind}-${link.id}.pdf"`);
      ctx.body = pdf;
    },
  }),
];
