/** Failed authentications allowed per client address and minute, per API process. */
export const FAILED_AUTH_PER_MINUTE = 30;
/** Addresses tracked per minute; past that the window starts afresh (a flood from many addresses). */
const MAX_ADDRESSES = 100_000;

/**
 * Counts failed authentications per client address in fixed one-minute windows: a client that
 * keeps presenting unknown or revoked keys is refused (429) for the rest of the minute, before
 * any lookup. In memory, per process: it guards the key lookup of this process, and needs no
 * database round trip, which is the point.
 */
export class FailedAuthLimiter {
  private window = 0;
  private readonly failures = new Map<string, number>();

  constructor(private readonly limit = FAILED_AUTH_PER_MINUTE) {}

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
