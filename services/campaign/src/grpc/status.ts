// Domain errors → gRPC status, once. The `details` text is what the gateway answers as
// `message`; unexpected errors are logged here and answered with a generic text only.
import * as grpc from '@grpc/grpc-js';
import type { Logger } from '../../../shared/src/log.js';
import { StatusError } from '../../../shared/src/grpc.js';
import { AlreadySentError, IdempotencyConflictError, NotFoundError, UnauthenticatedError, ValidationError } from '../domain/errors.js';

export function toStatus(err: unknown, method: string, log: Logger): Partial<grpc.StatusObject> {
  if (err instanceof ValidationError) return { code: grpc.status.INVALID_ARGUMENT, details: err.message };
  if (err instanceof UnauthenticatedError) return { code: grpc.status.UNAUTHENTICATED, details: err.message };
  if (err instanceof NotFoundError) return { code: grpc.status.NOT_FOUND, details: err.message };
  if (err instanceof AlreadySentError) return { code: grpc.status.FAILED_PRECONDITION, details: err.message };
  if (err instanceof IdempotencyConflictError) return { code: grpc.status.ALREADY_EXISTS, details: err.message };
  if (err instanceof StatusError) return { code: err.code, details: err.message };
  log.error('unexpected error', { method, err: err instanceof Error ? err : new Error(String(err)) });
  return { code: grpc.status.INTERNAL, details: method === 'CreateCampaign' ? 'Error creating campaign' : 'Internal server error' };
}
