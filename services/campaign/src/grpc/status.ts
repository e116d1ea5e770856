// Domain errors → gRPC status, once. The `details` text is what the gateway answers as
// `message` (made safe for the trailer by refusalStatus); unexpected errors are logged here and
// answered with a generic text only; a call that got no database connection in time, busy.
import * as grpc from '@grpc/grpc-js';
import { BUSY_RETRY_AFTER_SECONDS, isConnectionWaitTimeout } from '@webpush/shared/db.js';
import { busyStatus, refusalStatus as status } from '@webpush/shared/grpc.js';
import type { Logger } from '@webpush/shared/log.js';
import { AlreadySentError, AudienceUnavailableError, IdempotencyConflictError, NotFoundError, RefusedError, UnauthenticatedError, ValidationError } from '../base/errors.js';
import { MESSAGES } from '../base/texts.js';

export function toStatus(err: unknown, method: string, log: Logger): Partial<grpc.StatusObject> {
  if (err instanceof ValidationError) return status(grpc.status.INVALID_ARGUMENT, err.message);
  if (err instanceof UnauthenticatedError) return status(grpc.status.UNAUTHENTICATED, err.message);
  if (err instanceof NotFoundError) return status(grpc.status.NOT_FOUND, err.message);
  if (err instanceof AlreadySentError || err instanceof RefusedError) return status(grpc.status.FAILED_PRECONDITION, err.message);
  if (err instanceof IdempotencyConflictError) return status(grpc.status.ALREADY_EXISTS, err.message);
  // No connection within the pool's bound: nothing of the call ran in a transaction (a create's
  // one transaction had not begun), so the gateway answers 503 with Retry-After, not the 500.
  if (isConnectionWaitTimeout(err) || err instanceof AudienceUnavailableError) return busyStatus(BUSY_RETRY_AFTER_SECONDS);
  try {
    log.error('unexpected error', { method, err: err instanceof Error ? err : new Error(String(err)) });
  } catch {
    // A log line that cannot be written must not cost the caller its answer.
  }
  return { code: grpc.status.INTERNAL, details: method === 'CreateCampaign' ? MESSAGES.errorCreating : MESSAGES.internal };
}
