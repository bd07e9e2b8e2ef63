import { randomUUID } from 'node:crypto';

export interface RetryOptions {
  /** Attempts in all, the first included (default 4). */
  maxAttempts?: number;
  /** The longest wait between two attempts, in milliseconds (default 30 000): a longer `Retry-After` is cut to it. */
  maxDelayMs?: number;
  /** The wait before the second attempt when the answer gives no `Retry-After`, doubled at each attempt (default 500 ms). */
  baseDelayMs?: number;
  /** Replaces `globalThis.fetch` (tests, proxies). */
  fetch?: typeof fetch;
  /** Replaces the timer between attempts (tests). */
  sleep?: (ms: number) => Promise<void>;
}

const RETRIED_STATUSES = new Set([409, 429, 503]);

/** The wait `Retry-After` asks for (seconds or an HTTP date), in milliseconds, or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function isRetried(response: Response): Promise<boolean> {
  if (!RETRIED_STATUSES.has(response.status)) return false;
  if (response.status !== 409) return true;
  // Only the 409 that says the same request is still running; `conflict` is final.
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: { code?: string } } | undefined;
  return body?.error?.code === 'idempotency_in_progress';
}

/**
 * A fetch that gives every POST an `Idempotency-Key` (unless the caller set one) and retries, with
 * that same key, network errors, 409 `idempotency_in_progress`, 429 and 503, honouring
 * `Retry-After`, a bounded number of times. The same key makes a retried POST safe: the API
 * replays the first answer rather than acting twice.
 */
export function retryingFetch(options: RetryOptions = {}): typeof fetch {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input, init) => {
    const original = new Request(input, init);
    if (original.method === 'POST' && !original.headers.has('idempotency-key')) original.headers.set('idempotency-key', randomUUID());
    // A body is read once: each attempt sends a copy, so a retry sends the same bytes.
    const body = original.body ? await original.arrayBuffer() : undefined;
    const send = options.fetch ?? globalThis.fetch;
    for (let attempt = 1; ; attempt++) {
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
      let response: Response;
      try {
        response = await send(new Request(original, { body }));
      } catch (error) {
        if (attempt >= maxAttempts || original.signal.aborted) throw error;
        await sleep(backoff);
        continue;
      }
      if (attempt >= maxAttempts || !(await isRetried(response))) return response;
      await response.body?.cancel();
      await sleep(Math.min(maxDelayMs, retryAfterMs(response.headers.get('retry-after')) ?? backoff));
    }
  };
}
