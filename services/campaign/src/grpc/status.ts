// Domain errors → gRPC status, once. The `details` text is what the gateway answers as
// `message`; unexpected errors are logged here and answered with a generic text only.
//
// Details travel as the `grpc-message` HTTP/2 trailer, so whatever they hold must survive two
// things outside our code: grpc-js runs `encodeURI` on them (a lone surrogate throws URIError
// from inside the callback, which once took the whole process down), and the caller's HPACK
// decoder refuses a header literal over 64 KiB with a connection-level COMPRESSION_ERROR,
// stalling every call multiplexed on that connection (all tenants) until its deadline. Messages
// are validated and bounded where they are made; this is the last defense.
import * as grpc from '@grpc/grpc-js';
import type { Logger } from '../../../shared/src/log.js';
import { safeText } from '../../../shared/src/text.js';
import { AlreadySentError, IdempotencyConflictError, NotFoundError, UnauthenticatedError, ValidationError } from '../domain/errors.js';
import { MESSAGES } from '../domain/messages.js';

/** Far above the longest message the domain makes (every create field wrong at once: ~1.2 kB). */
export const MAX_DETAILS_CHARS = 4000;

function status(code: grpc.status, details: string): Partial<grpc.StatusObject> {
  return { code, details: safeText(details, MAX_DETAILS_CHARS) };
}

export function toStatus(err: unknown, method: string, log: Logger): Partial<grpc.StatusObject> {
  if (err instanceof ValidationError) return status(grpc.status.INVALID_ARGUMENT, err.message);
  if (err instanceof UnauthenticatedError) return status(grpc.status.UNAUTHENTICATED, err.message);
  if (err instanceof NotFoundError) return status(grpc.status.NOT_FOUND, err.message);
  if (err instanceof AlreadySentError) return status(grpc.status.FAILED_PRECONDITION, err.message);
  if (err instanceof IdempotencyConflictError) return status(grpc.status.ALREADY_EXISTS, err.message);
  try {
    log.error('unexpected error', { method, err: err instanceof Error ? err : new Error(String(err)) });
  } catch {
    // A log line that cannot be written must not cost the caller its answer.
  }
  return { code: grpc.status.INTERNAL, details: method === 'CreateCampaign' ? MESSAGES.errorCreating : MESSAGES.internal };
}
