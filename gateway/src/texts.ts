// The gateway's one catalogue of the texts it answers itself as `message` (texts of the backends'
// answers come from theirs: services/campaign/src/base/texts.ts). SPEC are the spec's texts
// word for word (the plan refusals are its prefix and its method-specific ending joined); OWN are
// the texts the spec does not state, recorded in docs/api-decisions.md or the OpenAPI document.
// Texts the campaign service answers too come from packages/shared/src/api-texts.ts.
import { SHARED_OWN, SHARED_SPEC } from '@webpush/shared/api-texts.js';
import { CONSOLE_OWN } from '@webpush/shared/console-texts.js';

const SPEC = {
  ...SHARED_SPEC,
  planCreate: 'This plan does not have permission to create campaigns with API',
  planReports: 'This plan does not have permission to access campaign reports via API',
  planDelete: 'This plan does not have permission to delete campaigns via API',
  campaignIdRequired: 'campaignId is required',
} as const;

const OWN = {
  ...SHARED_OWN,
  bodyTooLarge: 'Request body too large',
  /** A 400 from a backend that gave no text of its own. */
  invalidRequest: 'Invalid request',
  notFound: 'Not found',
  methodNotAllowed: 'Method not allowed',
  upstreamUnavailable: 'Upstream unavailable',
  badRequest: 'Bad request',
  requestTimeout: 'Request timeout',
  /** 431: the request's headers exceed Node's 16 kB (http-server.ts, clientError). */
  headersTooLarge: 'Request headers too large',
  /** 417: an Expect header other than 100-continue (http-server.ts, checkExpectation). */
  expectationFailed: 'Expectation failed: only Expect: 100-continue is supported',
  tooManyRequests: 'Too many requests',
  /** 403 for POST /v2/subscribers/import on a plan without the `audience` permission (an addition, in the spec's words). */
  planImport: 'This plan does not have permission to import subscribers via API',
  /** 403 for GET /v2/subscribers/export on a plan without the `audience` permission (an addition). */
  planExport: 'This plan does not have permission to export subscribers via API',
  /** 403 for the /v2/webhooks calls on a plan without the `reports` permission (an addition). */
  planWebhooks: 'This plan does not have permission to manage webhooks via API',
  /** 403 for the /v2/templates calls on a plan without the `create` permission (an addition). */
  planTemplates: 'This plan does not have permission to manage templates via API',
  /** 403 for /v2/automations and POST /v2/events on a plan without the `create` permission (an addition). */
  planAutomations: 'This plan does not have permission to manage automations via API',
  /** 403 for the /v2/feeds calls on a plan without the `create` permission (an addition). */
  planFeeds: 'This plan does not have permission to manage feeds via API',
  /** 403 for the /v2/users calls on a plan without the `audience` permission (an addition; docs/people.md). */
  planUsers: 'This plan does not have permission to manage users via API',
  /** 403 for GET /v2/optin/funnel on a plan without the `reports` permission (an addition). */
  planOptInFunnel: 'This plan does not have permission to access opt-in reports via API',
  /** 503: a backend could not be reached and the call did nothing there (status-map.ts). */
  serviceUnavailable: 'Service temporarily unavailable. The request was not processed; retry after Retry-After seconds',
  /** 503 for /console/ when the console's pages were not built (console/pages.ts). */
  consoleNotBuilt: 'The console pages are not built: run npm run build',
  /** The console API (docs/console.md); the campaign service answers some of them too. */
  ...CONSOLE_OWN,
} as const;

export const SPEC_MESSAGES: Readonly<typeof SPEC> = Object.freeze(SPEC);
export const OWN_MESSAGES: Readonly<typeof OWN> = Object.freeze(OWN);
/** Both, for the code: which is which is this file's business. */
export const MESSAGES: Readonly<typeof SPEC & typeof OWN> = Object.freeze({ ...SPEC, ...OWN });

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
