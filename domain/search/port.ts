import type { ShortWorkflowRunner } from '../short-workflows.js';

/** The semantic search's short workflows: embeddings (workflows/search.ts). */
export interface SearchWorkflows {
  embedQuery(text: string): Promise<number[]>;
  embedCatalogue(texts: string[]): Promise<number[][]>;
}

/** The embedding workflows as the domain runs them (temporal/short-workflows.ts). */
export type SearchPort = ShortWorkflowRunner<SearchWorkflows>;
