import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { Generation, GenerationTask } from '../domain/ai/task.js';
import { LLM_QUEUE } from './contract.js';

/** A slow model answer is normal; 3 attempts; a refused request (4xx) is not retried. */
const { generateWithLlm } = proxyActivities<Activities>({
  taskQueue: LLM_QUEUE,
  startToCloseTimeout: '2m',
  scheduleToCloseTimeout: '5m',
  retry: { maximumAttempts: 3, initialInterval: '500ms', nonRetryableErrorTypes: ['PartnerRefused'] },
});

/** POST /v1/ai/*: one LLM generation, on the LLM's rate-capped task queue. */
export async function aiGeneration(task: GenerationTask): Promise<Generation> {
  return generateWithLlm(task);
}
