/** What an AI operation asks of the language model, and what comes back: plain data the domain builds and checks. */

/** The JSON schema the model's answer must follow (OpenAI's structured outputs). */
export interface OutputSchema {
  name: string;
  schema: Record<string, unknown>;
}

/** One AI operation: which prompt, the user's input as data, and the shape of the answer. */
export interface GenerationTask {
  prompt: string;
  data: Record<string, unknown>;
  output: OutputSchema;
  maxTokens: number;
}

export interface Generation {
  output: Record<string, unknown>;
  model: string;
  promptVersion: string;
}
