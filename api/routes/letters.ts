import type { Context } from 'koa';
import { findLetter, letterFields, publicLetter } from '../../domain/catalogue/catalogue.js';
import { explainMissing, newlyRequired, refuseWithdrawnProvider, upgradeLetterFields } from '../../domain/catalogue/compatibility.js';
import { payThen } from '../../domain/billing/charge.js';
import { unprocessable } from '../../domain/errors.js';
import { requireValidLetterValues } from '../../domain/letters/values.js';
import { renderLetter } from '../../domain/letters/render.js';
import {
  letterDetailQuery,
  letterDetailSchema,
  letterRenderRequestSchema,
  letterRenderSchema,
  letterSlugParams,
  type LetterRenderRequest,
} from '../schemas/letters.js';
import { defineRoute } from './route.js';
import { caller, deps } from '../respond.js';

type SlugParams = { slug: string };

/** Shared by render and pdf: 404 for unknown slug or provider, 422 with every bad value. */
function renderRequest(slug: string, body: LetterRenderRequest) {
  refuseWithdrawnProvider(slug, body.provider);
  const { letter, provider } = findLetter(slug, body.provider);
  const { fields, warnings } = upgradeLetterFields(letter.slug, body.fields, 'fields.');
  const values = requireValidLetterValues(letter, provider, fields);
  return { letter, warnings, ...renderLetter(letter, provider, values) };
}

const slugRoutes = { params: letterSlugParams };

export const letterRoutes = [
  defineRoute<SlugParams, { provider?: string }>({
    operationId: 'getLetter',
    method: 'GET',
    path: '/v1/letters/{slug}',
    tag: 'Letters',
    summary: 'A catalogue letter with its legal basis, providers and fields (exact fields for ?provider=)',
    scope: 'catalogue:read',
    ...slugRoutes,
    query: letterDetailQuery,
    success: { status: 200, description: 'LetterDetail', schema: letterDetailSchema },
    errors: [400, 401, 403, 404, 429, 500],
    async handler(ctx, { params, query }) {
      const { letter, provider } = findLetter(params.slug, query.provider);
      ctx.body = {
        ...publicLetter(letter),
        provider: provider ? { slug: provider.slug, name: provider.name, address: provider.address } : null,
        fields: provider ? letterFields(letter, provider) : publicLetter(letter).fields,
        template: { subject: letter.subject, body: letter.body },
      };
    },
  }),
  defineRoute<SlugParams, Record<string, never>, LetterRenderRequest>({
    operationId: 'renderLetter',
    method: 'POST',
    path: '/v1/letters/{slug}/render',
    tag: 'Letters',
    summary: 'Render a catalogue letter: segments, text form and missing fields',
    description:
      'Values are checked against each field (type, pattern, postal address norm): every invalid value is listed in a 422. Missing values are not an error here: they are reported in missingFields.',
    scope: 'catalogue:read',
    ...slugRoutes,
    body: letterRenderRequestSchema,
    success: { status: 200, description: 'LetterRender', schema: letterRenderSchema },
    errors: [400, 401, 403, 404, 409, 413, 422, 429, 500],
    async handler(ctx, { params, body }) {
      const { segments, text, missingFields, warnings } = renderRequest(params.slug, body);
      ctx.body = { segments, text, missingFields, warnings };
    },
  }),
  defineRoute<SlugParams, Record<string, never>, LetterRenderRequest>({
    operationId: 'renderLetterPdf',
    method: 'POST',
    path: '/v1/letters/{slug}/pdf',
    tag: 'Letters',
    summary: 'The complete letter as an A4 PDF',
    description:
      'A French business letter (sender block, recipient block placed for a window envelope, place and date, subject, body, signature) with embedded fonts; letters longer than a page are numbered. ' +
      'Every required field must have a value (422 lists the missing ones). Billed as one "letter.pdf"; a failed rendering is credited back.',
    scope: 'letters:write',
    ...slugRoutes,
    body: letterRenderRequestSchema,
    success: { status: 200, description: 'application/pdf, A4', contentType: 'application/pdf' },
    errors: [400, 401, 402, 403, 404, 409, 413, 422, 429, 500],
    async handler(ctx: Context, { params, body }) {
      const { letter, document, missingFields } = renderRequest(params.slug, body);
      if (missingFields.length)
        throw unprocessable(`A complete letter needs ${explainMissing('letters', letter.slug, missingFields)}.`, {
          missingFields,
          newlyRequired: newlyRequired('letters', letter.slug, missingFields),
        });
      const pdf = await payThen(
        deps(ctx),
        caller(ctx),
        'letter.pdf',
        () => deps(ctx).workflows.letters.run('letterPdf', [document], { idPrefix: 'letter-pdf' }),
        letter.slug,
        (pdf) => ({ type: 'application/pdf', body: Buffer.from(pdf) }),
      );
      const bytes = Buffer.from(pdf);
      ctx.set('Content-Disposition', `inline; filename="${letter.slug}.pdf"`);
      ctx.type = 'application/pdf';
      ctx.body = bytes;
    },
  }),
];
