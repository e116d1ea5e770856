// The one catalogue of texts the gateway itself answers. Texts the spec fixes are quoted word
// for word from it; the others are recorded in docs/api-decisions.md or the OpenAPI document.
export const MESSAGES = Object.freeze({
  notAuthorized: 'Not authorized',
  planCreate: 'This plan does not have permission to create campaigns with API',
  planReports: 'This plan does not have permission to access campaign reports via API',
  planDelete: 'This plan does not have permission to delete campaigns via API',
  invalidJson: 'Invalid JSON body',
  campaignIdRequired: 'campaignId is required',
  campaignNotFound: 'Campaign not found',
  bodyTooLarge: 'Request body too large',
  badIdempotencyKey: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  errorCreating: 'Error creating campaign',
  internal: 'Internal server error',
  notFound: 'Not found',
  methodNotAllowed: 'Method not allowed',
  upstreamUnavailable: 'Upstream unavailable',
  badRequest: 'Bad request',
  requestTimeout: 'Request timeout',
  tooManyRequests: 'Too many requests',
});

/** An answer decided before or instead of a backend call: a status and the `{message}` text. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Headers of the answer (Retry-After of a 429). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** 429 `Too many requests`, with Retry-After in seconds. */
export function tooManyRequests(retryAfterSeconds: number): HttpError {
  return new HttpError(429, MESSAGES.tooManyRequests, { 'Retry-After': String(retryAfterSeconds) });
}
