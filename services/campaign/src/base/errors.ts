// The domain's typed errors. Each adapter maps these once (grpc/status.ts); their texts come
// from the catalogue (texts.ts).
import { MESSAGES } from './texts.js';

/** Bad input; `messages` are in the spec table's order and are answered joined with ", ". */
export class ValidationError extends Error {
  readonly messages: readonly string[];
  constructor(messages: readonly string[]) {
    super(messages.join(', '));
    this.messages = messages;
  }
}

export class UnauthenticatedError extends Error {
  constructor() {
    super(MESSAGES.notAuthorized);
  }
}

/** A campaign (or, named, another resource of the site: a template, a notification) that the site does not have. */
export class NotFoundError extends Error {
  constructor(message: string = MESSAGES.campaignNotFound) {
    super(message);
  }
}

export class AlreadySentError extends Error {
  constructor() {
    super(MESSAGES.alreadySent);
  }
}

export class IdempotencyConflictError extends Error {
  constructor() {
    super(MESSAGES.idempotencyMismatch);
  }
}

/**
 * A request the campaign's state refuses, with the API's message (a pick of a winner for a
 * campaign without an A/B test, or one the delivery service refuses: not started, already chosen).
 */
export class RefusedError extends Error {}

/**
 * The delivery service could not count an audience (unreachable, past the count's deadline, or
 * failing): not a fault of the request. A create stores the campaign uncounted, or for a local-time
 * campaign, whose plan needs the count, answers busy (503 with Retry-After: nothing was written).
 */
export class AudienceUnavailableError extends Error {
  constructor(readonly reason: unknown) {
    super('audience count unavailable');
  }
}
