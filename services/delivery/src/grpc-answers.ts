// How every delivery gRPC handler answers: refused input with its messages (INVALID_ARGUMENT,
// FAILED_PRECONDITION, NOT_FOUND; RESOURCE_EXHAUSTED with trailing metadata `retry-after` in
// seconds), no database connection within the pool's bound as UNAVAILABLE with `retry-after`
// (busy: the gateway's 503), anything else logged here and answered INTERNAL without detail.
import * as grpc from '@grpc/grpc-js';
import { BUSY_RETRY_AFTER_SECONDS, isConnectionWaitTimeout } from '@webpush/shared/db.js';
import { busyStatus, refusalStatus, RETRY_AFTER_METADATA } from '@webpush/shared/grpc.js';
import type { Logger } from '@webpush/shared/log.js';
import { NotFoundError, RateLimitedError, StateConflictError, ValidationError } from './errors.js';

export type Callback<T> = (err: grpc.ServiceError | null, value?: T) => void;

function refusal(err: unknown): { code: grpc.status; details: string } | null {
  if (err instanceof ValidationError) return refusalStatus(grpc.status.INVALID_ARGUMENT, err.message);
  if (err instanceof StateConflictError) return refusalStatus(grpc.status.FAILED_PRECONDITION, err.message);
  if (err instanceof NotFoundError) return refusalStatus(grpc.status.NOT_FOUND, err.message);
  if (err instanceof RateLimitedError) return refusalStatus(grpc.status.RESOURCE_EXHAUSTED, err.message);
  return null;
}

/** The trailing metadata a refusal carries: a throttled call's `retry-after` (seconds). */
function refusalMetadata(err: unknown): grpc.Metadata {
  const metadata = new grpc.Metadata();
  if (err instanceof RateLimitedError) metadata.set(RETRY_AFTER_METADATA, String(err.retryAfterSeconds));
  return metadata;
}

/** The status a failed call answers: a refusal with its messages, anything else logged and INTERNAL. */
export function serviceError(err: unknown, method: string, log: Logger): grpc.ServiceError {
  if (isConnectionWaitTimeout(err)) {
    log.warn('no database connection within its wait: answered busy', { method });
    const busy = busyStatus(BUSY_RETRY_AFTER_SECONDS);
    return { name: 'Error', message: busy.details, ...busy };
  }
  const refused = refusal(err);
  if (!refused) log.error('gRPC call failed', { method, err });
  const { code, details } = refused ?? { code: grpc.status.INTERNAL, details: 'Internal error' };
  return { name: 'Error', message: details, code, details, metadata: refused ? refusalMetadata(err) : new grpc.Metadata() };
}

/** Runs a unary call's work and answers its value or its serviceError. */
export function answer<T>(log: Logger, method: string, callback: Callback<T>, work: () => Promise<T>): void {
  work().then(
    (value) => callback(null, value),
    (err: unknown) => callback(serviceError(err, method, log)),
  );
}
