// campaign.v1.Console's statuses → the console API's answers, exactly as the header of
// packages/contracts/protos/campaign/v1/console.proto states. A 4xx's message is the status details (the console's
// text); anything else is the route's generic 500 text, except a call that certainly never
// reached its service: 503, as on /v2 (grpc/status-map.ts).
import { status as Status } from '@grpc/grpc-js';
import { backendUnavailable, busyAnswer, isGrpcError, neverReachedBackend, retryAfterOf, serviceBusy } from '../grpc/status-map.js';
import { HttpError, MESSAGES } from '../texts.js';

const TO_HTTP: ReadonlyMap<number, { http: number; fallback: string }> = new Map([
  [Status.INVALID_ARGUMENT, { http: 400, fallback: MESSAGES.invalidRequest }],
  [Status.UNAUTHENTICATED, { http: 401, fallback: MESSAGES.wrongLogin }],
  [Status.NOT_FOUND, { http: 404, fallback: MESSAGES.notFound }],
  [Status.FAILED_PRECONDITION, { http: 409, fallback: MESSAGES.invalidRequest }],
  [Status.RESOURCE_EXHAUSTED, { http: 429, fallback: MESSAGES.tooManyLogins }],
]);

export function consoleHttpError(err: unknown, genericMessage: string): HttpError {
  if (isGrpcError(err)) {
    const mapped = TO_HTTP.get(err.code);
    if (mapped) {
      const message = err.details && err.details.trim() !== '' ? err.details : mapped.fallback;
      return new HttpError(mapped.http, message, mapped.http === 429 ? { 'Retry-After': String(retryAfterOf(err) ?? 60) } : {});
    }
    if (serviceBusy(err)) return busyAnswer(err);
    if (neverReachedBackend(err)) return backendUnavailable();
  }
  return new HttpError(500, genericMessage);
}
