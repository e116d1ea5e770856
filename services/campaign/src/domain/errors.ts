// The domain's error catalogue. Each adapter maps these once (grpc/status.ts); the texts are
// the spec's `message` strings, word for word.

export const MESSAGES = Object.freeze({
  notAuthorized: 'Not authorized',
  campaignNotFound: 'Campaign not found',
  alreadySent: 'Cannot delete a campaign that has already been sent',
  invalidCursor: 'Invalid pagination cursor',
  idempotencyMismatch: 'Idempotency-Key was already used with a different request body',
  idempotencyKeyFormat: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  invalidJson: 'Invalid JSON body',
});

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

export class NotFoundError extends Error {
  constructor() {
    super(MESSAGES.campaignNotFound);
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
