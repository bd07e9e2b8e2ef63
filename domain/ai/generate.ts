import type Joi from 'joi';
import { joiToJsonSchema } from '../../lib/json-schema.js';
import { payThen } from '../billing/charge.js';
import type { PriceUnit } from '../billing/prices.js';
import { upstreamError } from '../errors.js';
import { requireAiEnabled } from '../access/ai-consent.js';
import type { Caller, Deps } from '../deps.js';
import type { Generation, GenerationTask, OutputSchema } from './task.js';

type JsonSchema = Record<string, unknown>;

/** The "simulated" model of test keys. */
export const SIMULATOR = 'svc-simulator';

/** Keywords every OpenAI-compatible strict schema accepts; limits are checked by Joi afterwards. */
const KEPT = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'description', 'anyOf']);

/** Strict structured output: every property required, no other property, only portable keywords. */
export function strictSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEPT.has(key)) continue;
    if (key === 'properties')
      out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, s]) => [name, strictSchema(s)]));
    else if (key === 'items') out.items = strictSchema(value as JsonSchema);
    else if (key === 'anyOf') out.anyOf = (value as JsonSchema[]).map(strictSchema);
    else out[key] = value;
  }
  if (out.type === 'object') {
    out.additionalProperties = false;
    out.required = Object.keys((out.properties as JsonSchema | undefined) ?? {});
  }
  return out;
}

/** The JSON Schema the model must follow, derived from the Joi schema that validates its answer. */
export function outputSchema(name: string, schema: Joi.Schema): OutputSchema {
  return { name, schema: strictSchema(joiToJsonSchema(schema as never, 'json') as JsonSchema) };
}

/**
 * A live AI operation: debited at the catalogue price before the call, run as a workflow on the
 * LLM's task queue, its answer validated by `accept`. A failing provider or an unusable answer is
 * 502 upstream_error and the debit is credited back. An account without the AI features on is
 * refused first (403 ai_not_enabled): nothing is debited, nothing reaches the provider.
 */
export async function generatePaid<T>(
  deps: Deps,
  caller: Caller,
  unit: PriceUnit,
  task: GenerationTask,
  accept: (generation: Generation) => T,
  reference: string | null = null,
): Promise<T> {
  await requireAiEnabled(deps.db, caller.accountId);
  return payThen(
    deps,
    caller,
    unit,
    async () => {
      const generation = await deps.workflows.ai.run('aiGeneration', [task], {
        idPrefix: `ai-${task.prompt.replace(/\//g, '-')}`,
        timeout: '6m',
        failure: () => upstreamError('The AI provider is failing; nothing was billed. Please retry.'),
      });
      return accept(generation);
    },
    reference,
  );
}

/** Validates a model's answer against the Joi schema of its shape; anything else is the provider's failure (502). */
export function validOutput<T>(schema: Joi.Schema, output: unknown): T {
  const { error, value } = schema.validate(output, { abortEarly: true, stripUnknown: true });
  // The field and the rule, never Joi's message: it can quote the answer's value, which is logged with a 502.
  const problem = error?.details[0];
  if (error)
    throw upstreamError(
      `The AI provider answered outside the expected shape (${problem ? `${problem.path.join('.') || 'answer'}: ${problem.type}` : 'invalid'}); nothing was billed. Please retry.`,
    );
  return value as T;
}
