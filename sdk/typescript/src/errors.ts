/** An error answer of the API: SPEC.md's `{ error: { code, message, details? } }`, with the HTTP status and the `Request-Id` to quote to support. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** The HTTP status, e.g. 422. */
    readonly status: number,
    /** The error code, e.g. `address_invalid`; a code added later arrives as is. */
    readonly code: string,
    message: string,
    /** What the code's documentation says it carries (a list of invalid fields, suggestions…), or undefined. */
    readonly details: unknown,
    /** The answer's `Request-Id` header, or undefined when the answer had none. */
    readonly requestId: string | undefined,
  ) {
    super(message);
  }

  /** The error of an answer that is not 2xx, from its status, headers and body text (not always JSON: a proxy's page). */
  static fromAnswer(status: number, headers: Headers, body: unknown): ApiError {
    const parsed = typeof body === 'string' ? parseJson(body) : body;
    const error = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
    const requestId = headers.get('request-id') ?? undefined;
    if (error && typeof error.code === 'string')
      return new ApiError(status, error.code, typeof error.message === 'string' ? error.message : error.code, error.details, requestId);
    return new ApiError(status, `http_${status}`, typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${status}`, undefined, requestId);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
