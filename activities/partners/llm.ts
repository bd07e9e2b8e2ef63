import got from 'got';
import type { OutputSchema } from '../../domain/ai/task.js';
import { PartnerResponseError } from './failures.js';

export interface ChatRequest {
  /** Our instructions: from a prompt file, never containing the user's text. */
  system: string;
  /** The user's input, as data (a JSON document). */
  user: string;
  output: OutputSchema;
  maxTokens: number;
  temperature: number;
}

export interface ChatAnswer {
  /** The assistant message, which should be JSON following `output`. */
  content: string;
  model: string;
  usage: { promptTokens: number; completionTokens: number } | null;
}

/** An LLM provider as the AI operations use it: one call, one structured answer. */
export interface LlmProvider {
  complete(request: ChatRequest): Promise<ChatAnswer>;
}

export class LlmResponseError extends PartnerResponseError {}

interface ChatCompletion {
  model?: unknown;
  choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/**
 * Any OpenAI-compatible chat-completions API (POST {base}/chat/completions) with JSON-schema
 * structured output. One attempt with a time limit: retries belong to the activity.
 */
export class OpenAiCompatibleProvider implements LlmProvider {
  constructor(private readonly settings: { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number }) {}

  async complete(request: ChatRequest): Promise<ChatAnswer> {
    const { baseUrl, apiKey, model, timeoutMs } = this.settings;
    const body = await got
      .post(`${baseUrl.replace(/\/$/, '')}/chat/completions`, {
        json: {
          model,
          messages: [
            { role: 'system', content: request.system },
            { role: 'user', content: request.user },
          ],
          response_format: { type: 'json_schema', json_schema: { name: request.output.name, strict: true, schema: request.output.schema } },
          max_tokens: request.maxTokens,
          temperature: request.temperature,
        },
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        timeout: { request: timeoutMs },
        retry: { limit: 0 },
      })
      .json<ChatCompletion>();
    const choice = body?.choices?.[0];
    if (typeof choice?.message?.refusal === 'string' && choice.message.refusal)
      throw new LlmResponseError(`the model refused: ${choice.message.refusal.slice(0, 200)}`);
    if (choice?.finish_reason === 'length') throw new LlmResponseError('the answer was cut at max_tokens');
    if (typeof choice?.message?.content !== 'string') throw new LlmResponseError('no message content in the completion');
    const usage =
      body.usage && typeof body.usage.prompt_tokens === 'number' && typeof body.usage.completion_tokens === 'number'
        ? { promptTokens: body.usage.prompt_tokens, completionTokens: body.usage.completion_tokens }
        : null;
    return { content: choice.message.content, model: typeof body.model === 'string' ? body.model : model, usage };
  }
}
