// gRPC status → HTTP, exactly as the header of packages/contracts/protos/campaign/v1/campaign.proto states. The
// message of a 4xx is the status details (the spec's text); anything else is the endpoint's
// generic 500 text, so backend internals never reach the customer — except a call that never
// reached its service (or reached one that does not know the method yet), which is certain to
// have done nothing and is answered 503 (below), and a
// service that answered busy (no database connection in time): 503 with its Retry-After.
import { status as Status } from '@grpc/grpc-js';
import { RETRY_AFTER_METADATA } from '@webpush/shared/grpc.js';
import { HttpError, MESSAGES } from '../texts.js';

const TO_HTTP: ReadonlyMap<number, { http: number; fallback: string }> = new Map([
  [Status.INVALID_ARGUMENT, { http: 400, fallback: MESSAGES.invalidRequest }],
  [Status.UNAUTHENTICATED, { http: 403, fallback: MESSAGES.notAuthorized }],
  [Status.NOT_FOUND, { http: 404, fallback: MESSAGES.campaignNotFound }],
  [Status.FAILED_PRECONDITION, { http: 409, fallback: MESSAGES.alreadySent }],
  [Status.ALREADY_EXISTS, { http: 422, fallback: MESSAGES.idempotencyMismatch }],
  // A site over its concurrent imports or exports (services/delivery/src/audience/site-slots.ts);
  // its `retry-after` metadata becomes Retry-After.
  [Status.RESOURCE_EXHAUSTED, { http: 429, fallback: MESSAGES.tooManyRequests }],
]);

/** Retry-After of the 503: about the time a restarted service takes to listen again. */
export const BACKEND_RETRY_AFTER_SECONDS = 5;

/**
 * The statuses grpc-js (1.14, load-balancing-call.ts, picker.ts, load-balancer-pick-first.ts,
 * resolver-dns.ts, internal-channel.ts, subchannel-call.ts) makes itself when the request never
 * left the gateway, or was refused by the server's HTTP/2 layer before any handler saw it:
 * - UNAVAILABLE from a pick in TRANSIENT_FAILURE (`No connection established…`: connection
 *   refused, no ready subchannel), from name resolution (`Name resolution failed…`), from a
 *   closed channel (`Channel closed before call started`), or a REFUSED_STREAM (`Stream refused
 *   by server`, RFC 9113 §8.7: not processed);
 * - DEADLINE_EXCEEDED while still waiting for a connection (`…Waiting for LB pick`, `…waiting
 *   for name resolution`).
 * - UNIMPLEMENTED from the service's grpc-js (server.ts getUnimplementedStatusResponse) for a
 *   method it does not know: a service of the previous release during a rolling upgrade
 *   (gateways go first, docs/operations.md "Upgrading"), which ran no handler.
 * Everything else stays a 500, in particular `Connection dropped`, write errors and a deadline
 * after the request was sent: a create may have happened (the spec's "check the list first").
 * Our services never answer UNAVAILABLE or UNIMPLEMENTED themselves (their errors map to the
 * codes above or INTERNAL), so these texts can only come from grpc-js.
 */
const NEVER_SENT: ReadonlyMap<number, RegExp> = new Map([
  [Status.UNAVAILABLE, /^(No connection established|Name resolution failed|Channel closed before call started$|Stream refused by server$)/],
  [Status.DEADLINE_EXCEEDED, /(^|,)(Waiting for LB pick|waiting for name resolution)(,|$)/],
  [Status.UNIMPLEMENTED, /^The server does not implement the method /],
]);

export function isGrpcError(err: unknown): err is { code: number; details?: string } {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'number';
}

/** The whole seconds of a status's `retry-after` trailing metadata (1 to a day), or undefined. */
export function retryAfterOf(err: unknown): number | undefined {
  const metadata = (err as { metadata?: { get(key: string): unknown[] } }).metadata;
  const value = Number(metadata?.get(RETRY_AFTER_METADATA)[0]);
  return Number.isInteger(value) && value > 0 && value <= 86_400 ? value : undefined;
}

/**
 * True when a service answered busy: no database connection within its pool's bound
 * (packages/shared/src/grpc.ts busyStatus). Only our services set `retry-after`, so grpc-js's
 * own UNAVAILABLE (never-sent, above) is never read as busy.
 */
export function serviceBusy(err: unknown): boolean {
  return isGrpcError(err) && err.code === Status.UNAVAILABLE && retryAfterOf(err) !== undefined;
}

/** 503 `Service busy…` with the service's Retry-After. */
export function busyAnswer(err: unknown): HttpError {
  return new HttpError(503, MESSAGES.serviceBusy, { 'Retry-After': String(retryAfterOf(err)) });
}

/** True when the call certainly never reached the service (so it did nothing there). */
export function neverReachedBackend(err: unknown): boolean {
  if (!isGrpcError(err)) return false;
  return NEVER_SENT.get(err.code)?.test(err.details ?? '') ?? false;
}

/** 503 with Retry-After: the backend is unreachable and the call did nothing; retrying is safe. */
export function backendUnavailable(): HttpError {
  return new HttpError(503, MESSAGES.serviceUnavailable, { 'Retry-After': String(BACKEND_RETRY_AFTER_SECONDS) });
}

export function toHttpError(err: unknown, genericMessage: string): HttpError {
  if (isGrpcError(err)) {
    const mapped = TO_HTTP.get(err.code);
    const message = err.details && err.details.trim() !== '' ? err.details : mapped?.fallback;
    if (mapped?.http === 429) return new HttpError(429, message!, { 'Retry-After': String(retryAfterOf(err) ?? 60) });
    if (mapped) return new HttpError(mapped.http, message!);
    if (serviceBusy(err)) return busyAnswer(err);
    if (neverReachedBackend(err)) return backendUnavailable();
  }
  return new HttpError(500, genericMessage);
}
