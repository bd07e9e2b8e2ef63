import joiToJson, { type parse as Parse } from 'joi-to-json';

// The package is CommonJS whose export is the function itself.
/** Joi → JSON Schema: the OpenAPI document and the AI operations' structured outputs. */
export const joiToJsonSchema = joiToJson as unknown as typeof Parse;
