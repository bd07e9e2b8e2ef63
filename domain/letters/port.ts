import type { ShortWorkflowRunner } from '../short-workflows.js';
import type { LetterDocument } from './render.js';

/** A letter's PDF, printed by the worker's browser (workflows/letters.ts). */
export interface LetterWorkflows {
  letterPdf(document: LetterDocument): Promise<Uint8Array>;
}

/** The letter workflows as the domain runs them (temporal/short-workflows.ts). */
export type LetterPort = ShortWorkflowRunner<LetterWorkflows>;
