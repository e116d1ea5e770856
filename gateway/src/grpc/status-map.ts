// gRPC status → HTTP, exactly as the header of protos/campaign/v1/campaign.proto states. The
// message of a 4xx is the status details (the spec's text); anything else is the endpoint's
// generic 500 text, so backend internals never reach the customer.
import { status as Status } from '@grpc/grpc-js';
import { HttpError, MESSAGES } from '../messages.js';

const TO_HTTP: ReadonlyMap<number, { http: number; fallback: string }> = new Map([
  [Status.INVALID_ARGUMENT, { http: 400, fallback: MESSAGES.invalidRequest }],
  [Status.UNAUTHENTICATED, { http: 403, fallback: MESSAGES.notAuthorized }],
  [Status.NOT_FOUND, { http: 404, fallback: MESSAGES.campaignNotFound }],
  [Status.FAILED_PRECONDITION, { http: 409, fallback: MESSAGES.alreadySent }],
  [Status.ALREADY_EXISTS, { http: 422, fallback: MESSAGES.idempotencyMismatch }],
]);

export function isGrpcError(err: unknown): err is { code: number; details?: string } {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'number';
}

export function toHttpError(err: unknown, genericMessage: string): HttpError {
  if (isGrpcError(err)) {
    const mapped = TO_HTTP.get(err.code);
    if (mapped) return new HttpError(mapped.http, err.details && err.details.trim() !== '' ? err.details : mapped.fallback);
  }
  return new HttpError(500, genericMessage);
}
