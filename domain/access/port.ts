/** The production access check's workflow as the domain sees it (temporal/access.ts). */
export interface AccessPort {
  /**
   * Starts the later directory check of a production request kept while the directory could not be
   * reached (once per request). Temporal unreachable: Unavailable (the request waits for an operator).
   */
  startProductionCheck(requestId: string, siret: string): Promise<void>;
}
