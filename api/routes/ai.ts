import type { Context } from 'koa';
import { acceptFilled, fillTarget, fillTask, simulateFill } from '../../domain/ai/fill.js';
import { letterResult, simulateDraft, draftTask, type AiLetterRequest, type DraftedLetter } from '../../domain/ai/draft.js';
import { prepareTool, simulateTool, toolTask } from '../../domain/ai/tools.js';
import { generatePaid, SIMULATOR, validOutput } from '../../domain/ai/generate.js';
import {
  aiFillRequestSchema,
  aiFillResultSchema,
  aiLetterRequestSchema,
  aiLetterResultSchema,
  aiToolParams,
  aiToolRequestSchema,
  aiToolResultSchema,
} from '../schemas/ai.js';
import { defineRoute } from './route.js';
import { caller, deps } from '../respond.js';
import { draftedLetterSchema, toolOutputSchema } from '../../domain/ai/answers.js';

const isTest = (ctx: Context): boolean => ctx.state.auth!.mode === 'test';
const simulated = { simulated: true, model: SIMULATOR, promptVersion: null };
const BILLING =
  'With a test key the answer is simulated (deterministic, derived from the input, marked simulated), the provider is never called and nothing is billed. ' +
  'With a live key it is debited at the catalogue price before the call and credited back when the provider fails or answers unusably (502 upstream_error). ' +
  'A live key of an account that has not turned the AI features on (developer space, account settings) is refused with 403 ai_not_enabled: nothing is sent to the AI provider, nothing is billed.';

export const aiRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, { slug: string; provider?: string; sentence: string }>({
    operationId: 'aiFillLetter',
    method: 'POST',
    path: '/v1/ai/fill',
    tag: 'AI',
    summary: "Fill a catalogue letter's fields from one sentence",
    description: `The model answers values constrained by the letter's field schema; they are checked with the rules of /render (unknown fields dropped, invalid values listed in rejected) and the letter is rendered. ${BILLING} Billed as one "ai.fill".`,
    scope: 'ai:write',
    body: aiFillRequestSchema,
    success: { status: 200, description: 'V1AiFillResult', schema: aiFillResultSchema },
    errors: [400, 401, 402, 403, 404, 409, 413, 422, 429, 500, 502],
    async handler(ctx, { body }) {
      const target = fillTarget(body.slug, body.provider);
      if (isTest(ctx)) {
        ctx.body = { ...acceptFilled(target, simulateFill(target.fields, body.sentence)), ...simulated };
        return;
      }
      ctx.body = await generatePaid(
        deps(ctx),
        caller(ctx),
        'ai.fill',
        fillTask(target, body.sentence),
        (g) => ({ ...acceptFilled(target, g.output), simulated: false, model: g.model, promptVersion: g.promptVersion }),
        target.letter.slug,
      );
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, AiLetterRequest>({
    operationId: 'aiDraftLetter',
    method: 'POST',
    path: '/v1/ai/letters',
    tag: 'AI',
    summary: 'Draft a custom letter from a description (recipient, purpose, tone, facts)',
    description: `Returns the letter as text segments (LetterRender's shape), its text, and letter { title, body }, ready for POST /v1/mailings as a free-form letter. ${BILLING} Billed as one "ai.letter".`,
    scope: 'ai:write',
    body: aiLetterRequestSchema,
    success: { status: 200, description: 'V1AiLetterResult', schema: aiLetterResultSchema },
    errors: [400, 401, 402, 403, 409, 413, 422, 429, 500, 502],
    async handler(ctx, { body }) {
      if (isTest(ctx)) {
        ctx.body = { ...letterResult(simulateDraft(body)), ...simulated };
        return;
      }
      ctx.body = await generatePaid(deps(ctx), caller(ctx), 'ai.letter', draftTask(body), (g) => ({
        ...letterResult(validOutput<DraftedLetter>(draftedLetterSchema, g.output)),
        simulated: false,
        model: g.model,
        promptVersion: g.promptVersion,
      }));
    },
  }),
  defineRoute<{ slug: string }, Record<string, never>, { inputs: Record<string, string | number> }>({
    operationId: 'aiRunTool',
    method: 'POST',
    path: '/v1/ai/tools/{slug}',
    tag: 'AI',
    summary: 'Run a catalogue AI tool with its declared inputs; returns the generated text',
    description: `Inputs are checked against the tool's inputs (422 per problem, or missingFields). ${BILLING} Billed as one "ai.tool".`,
    scope: 'ai:write',
    params: aiToolParams,
    body: aiToolRequestSchema,
    success: { status: 200, description: 'V1AiToolResult', schema: aiToolResultSchema },
    errors: [400, 401, 402, 403, 404, 409, 413, 422, 429, 500, 502],
    async handler(ctx, { body, params }) {
      const prepared = prepareTool(params.slug, body.inputs);
      const head = { slug: prepared.tool.slug, title: prepared.tool.title };
      if (isTest(ctx)) {
        ctx.body = { ...head, ...simulateTool(prepared), ...simulated };
        return;
      }
      ctx.body = await generatePaid(
        deps(ctx),
        caller(ctx),
        'ai.tool',
        toolTask(prepared),
        (g) => ({
          ...head,
          text: validOutput<{ text: string }>(toolOutputSchema, g.output).text,
          simulated: false,
          model: g.model,
          promptVersion: g.promptVersion,
        }),
        prepared.tool.slug,
      );
    },
  }),
];
