/** Failed authentications allowed per client address and minute, per API process. */
export const FAILED_AUTH_PER_MINUTE = 30;
/** Proof links that fail to open (unknown, forged or expired) per client address and minute. */
export const FAILED_PROOF_LINKS_PER_MINUTE = 20;
/** Addresses tracked per minute; past that the window starts afresh (a flood from many addresses). */
const MAX_ADDRESSES = 100_000;

/**
 * Counts failures per client address in fixed one-minute windows (failed authentications, proof
 * links that do not open): a client that keeps guessing is refused (429) for the rest of the
 * minute, before any lookup. In memory, per process: it guards this process's lookups and needs
 * no database round trip, which is the point.
 */
export class FailureLimiter {
  private window = 0;
  private readonly failures = new Map<string, number>();

  constructor(private readonly limit: number) {}

  private current(now: number): void {
    const window = Math.floor(now / 60_000);
    if (window !== this.window || this.failures.size >= MAX_ADDRESSES) {
      this.window = window;
      this.failures.clear();
    }
  }

  /** True while the address is under the limit. */
  allows(address: string, now = Date.now()): boolean {
    this.current(now);
    return (this.failures.get(address) ?? 0) < this.limit;
  }

  recordFailure(address: string, now = Date.now()): void {
    this.current(now);
    this.failures.set(address, (this.failures.get(address) ?? 0) + 1);
  }
}
