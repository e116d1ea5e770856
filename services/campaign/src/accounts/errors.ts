// The console's typed refusals, mapped once to gRPC statuses (grpc-handlers.ts). Their texts come
// from the catalogue (base/texts.ts).
import { MESSAGES } from '../base/texts.js';

/** Wrong email or password (the same for an email that is no account). */
export class WrongLoginError extends Error {
  constructor() {
    super(MESSAGES.wrongLogin);
  }
}

/** Too many failed logins for the email or from the address; `retryAfterSeconds` ≥ 1. */
export class TooManyLoginsError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(MESSAGES.tooManyLogins);
  }
}

/** Every password check this process may run, or hold waiting, is taken (password-gate.ts). */
export class PasswordChecksBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(MESSAGES.loginsBusy);
  }
}

/** A site, key or link that does not exist for the caller; `message` says which. */
export class ConsoleNotFoundError extends Error {}

/** A request the current state refuses (a revoked key rotated). */
export class ConsoleConflictError extends Error {}
