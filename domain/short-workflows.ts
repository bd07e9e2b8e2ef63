import type { DomainError } from './errors.js';

/** How a short workflow is run to its result. */
export interface RunOptions {
  /** Prefix of the workflow id, e.g. "company-search". */
  idPrefix: string;
  /** Whole-run deadline, e.g. "60s". */
  timeout?: string;
  /** The error to report when the workflow fails (default: an internal error). */
  failure?: () => DomainError;
}

/** Short workflows by name, with the plain data they take and give. */
export type ShortWorkflows<W> = { [N in keyof W]: (...args: never[]) => Promise<unknown> };

/**
 * The port of a group of short workflows the domain runs to their result, typed by the group `W`
 * its module defines (e.g. `LookupWorkflows` in domain/lookups/port.ts); the worker's workflows
 * must match it (checked where the Temporal client runs them, temporal/short-workflows.ts).
 * Temporal unreachable: Unavailable.
 */
export interface ShortWorkflowRunner<W extends ShortWorkflows<W>> {
  run<N extends keyof W & string>(name: N, args: Parameters<W[N]>, options: RunOptions): Promise<Awaited<ReturnType<W[N]>>>;
}
