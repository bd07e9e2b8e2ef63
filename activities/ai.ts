import type { Config } from '../lib/config.js';
import { partnerCall } from './partners/failures.js';
import type { Generation, GenerationTask } from '../domain/ai/task.js';
import { LlmResponseError, OpenAiCompatibleProvider, type LlmProvider } from './partners/llm.js';
import { loadPrompt } from './ai/prompts.js';

/**
 * The AI operations' one partner call. The system message is the prompt file alone; the user's
 * text travels only inside the user message, as a JSON document, so it can never become an
 * instruction of ours. The answer must parse as a JSON object (else the attempt fails and is
 * retried); its content is validated again by the API.
 */
export function aiActivities(config: Config, provider: LlmProvider = new OpenAiCompatibleProvider(config.llm)) {
  return {
    async generateWithLlm(task: GenerationTask): Promise<Generation> {
      const prompt = loadPrompt(task.prompt);
      return partnerCall('AI provider', async () => {
        const answer = await provider.complete({
          system: prompt.text,
          user: JSON.stringify(task.data),
          output: task.output,
          maxTokens: task.maxTokens,
          temperature: 0.2,
        });
        let output: unknown;
        try {
          output = JSON.parse(answer.content);
        } catch {
          throw new LlmResponseError('the answer is not valid JSON');
        }
        if (!output || typeof output !== 'object' || Array.isArray(output)) throw new LlmResponseError('the answer is not a JSON object');
        return { output: output as Record<string, unknown>, model: answer.model, promptVersion: prompt.version };
      });
    },
  };
}
