import Joi from 'joi';
import { TONES } from '../../domain/ai/answers.js';
import { slug } from './common.js';
import { letterRenderSchema } from './letters.js';
import { freeLetter } from '../../domain/letters/free-letter.js';
import { computeRequestSchema } from './calculators.js';

/** What every AI result says of how it was produced. */
const generation = {
  simulated: Joi.boolean().required().description('True with a test key: deterministic output derived from the input, no provider called, nothing billed'),
  model: Joi.string().required().description('The model that answered ("svc-simulator" when simulated)'),
  promptVersion: Joi.string().allow(null).required().description('The prompt file used, e.g. fill-letter@v1; null when simulated'),
};

export const aiFillRequestSchema = Joi.object({
  slug: slug.required().description('The catalogue letter to fill'),
  provider: Joi.string().min(1).max(80).description('A provider of the letter: its address and own fields apply'),
  sentence: Joi.string()
    .trim()
    .min(3)
    .max(2000)
    .required()
    .description('One sentence in the sender\'s words, e.g. "Je résilie mon abonnement Free n° 123456 au 31 mars 2026"'),
}).label('AiFillRequest');

export const aiFillResultSchema = Joi.object({
  slug: Joi.string().required(),
  provider: Joi.string().allow(null).required(),
  values: Joi.object()
    .pattern(Joi.string(), Joi.alternatives(Joi.string(), Joi.number()))
    .required()
    .description('Field values found, checked with the rules of /render'),
  missingFields: Joi.array().items(Joi.string()).required().description('Required fields still without a value'),
  rejected: Joi.array()
    .items(Joi.object({ field: Joi.string().required(), message: Joi.string().required() }))
    .required()
    .description('Values the model proposed that fail the field rules: left out of values'),
  render: letterRenderSchema.required(),
  ...generation,
}).label('V1AiFillResult');

export const aiLetterRequestSchema = Joi.object({
  recipient: Joi.string().trim().min(2).max(300).description('Who the letter is for, e.g. "le service client de Free"'),
  purpose: Joi.string().trim().min(10).max(2000).required().description('What the letter must obtain or say'),
  tone: Joi.string()
    .valid(...TONES)
    .default('formel'),
  facts: Joi.array().items(Joi.string().trim().min(1).max(1000)).max(20).default([]).description('Facts to state, in order'),
  senderName: Joi.string().trim().min(2).max(100),
}).label('AiLetterRequest');

const textSegment = Joi.object({ type: Joi.string().valid('text').required(), text: Joi.string().required() }).label('TextSegment');

export const aiLetterResultSchema = Joi.object({
  title: Joi.string().required(),
  segments: Joi.array().items(textSegment).required().description('The letter in reading order, as in LetterRender'),
  text: Joi.string().required(),
  missingFields: Joi.array().items(Joi.string()).length(0).required().description('Always empty: a drafted letter has no field slots'),
  letter: freeLetter.required().description('Ready for POST /v1/mailings as a free-form letter'),
  ...generation,
}).label('V1AiLetterResult');

export const aiToolParams = Joi.object({ slug: slug.required() });

export const aiToolRequestSchema = computeRequestSchema
  .keys({ inputs: computeRequestSchema.extract('inputs').description("The tool's inputs by name (see GET /v1/catalogue, aiTools)") })
  .label('AiToolRequest');

/** The model's answer for a tool. */

export const aiToolResultSchema = Joi.object({
  slug: Joi.string().required(),
  title: Joi.string().required(),
  text: Joi.string().required().description('The generated text'),
  ...generation,
}).label('V1AiToolResult');
