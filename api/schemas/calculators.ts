import Joi from 'joi';
import { slug } from './common.js';

export const calculatorParams = Joi.object({ slug: slug.required() });

export const computeRequestSchema = Joi.object({
  inputs: Joi.object()
    .pattern(Joi.string().max(64), Joi.alternatives(Joi.string().max(1000), Joi.number()))
    .max(50)
    .default({})
    .description("The calculator's inputs by name (see GET /v1/catalogue)"),
}).label('ComputeRequest');

/** What every computed answer (calculator, quote) starts with: which tool, and the inputs it used. */
export const computedHead = {
  slug: Joi.string().required(),
  title: Joi.string().required(),
  inputs: Joi.object().unknown(true).required().description('The inputs used, defaults included'),
  defaultsApplied: Joi.array()
    .items(Joi.object({ field: Joi.string().required(), value: Joi.alternatives(Joi.string(), Joi.number()).required(), reason: Joi.string().required() }))
    .required(),
};

export const calculatorResultSchema = Joi.object({
  ...computedHead,
  result: Joi.object().unknown(true).required(),
  source: Joi.array().items(Joi.string()).required().description('Official sources of the formula'),
}).label('CalculatorResult');
