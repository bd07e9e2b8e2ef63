import type { ShortWorkflowRunner } from '../short-workflows.js';
import type { Generation, GenerationTask } from './task.js';

/** The AI operations' short workflow: one LLM generation (workflows/ai.ts). */
export interface AiWorkflows {
  aiGeneration(task: GenerationTask): Promise<Generation>;
}

/** The AI workflows as the domain runs them (temporal/short-workflows.ts). */
export type AiPort = ShortWorkflowRunner<AiWorkflows>;
