/** The single error type of the API; the error middleware turns it into the SPEC.md error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const invalidRequest = (message: string, details?: unknown): ApiError => new ApiError(400, 'invalid_request', message, details);
export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);
export const unprocessable = (message: string, details?: unknown, code = 'unprocessable'): ApiError => new ApiError(422, code, message, details);
export const upstreamError = (message: string): ApiError => new ApiError(502, 'upstream_error', message);
export const serviceUnavailable = (message: string): ApiError => new ApiError(503, 'service_unavailable', message);
