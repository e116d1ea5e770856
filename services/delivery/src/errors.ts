// The delivery domain's error catalogue; each boundary maps these once.

/** Input that breaks a rule; `messages` are shown to the caller, joined with ", ". */
export class ValidationError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join(', '));
    this.name = 'ValidationError';
  }
}

export class SiteNotFoundError extends Error {
  constructor() {
    super('Site not found');
    this.name = 'SiteNotFoundError';
  }
}

/** A thing of the site's that does not exist, or is another site's; `message` is the API's ("Campaign not found"). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** A misuse of the operator functions (bad arguments), with a message for the operator. */
export class DeliveryOperatorError extends Error {
  override name = 'DeliveryOperatorError';
}
/** The site an operator named is not one this service knows. */
export class UnknownSiteError extends DeliveryOperatorError {}
/** A site's public id that another site holds already. */
export class PublicIdTakenError extends DeliveryOperatorError {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Too many requests of a kind within its window (a site's test pushes); `message` is the customer's. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  constructor(
    message: string,
    /** Seconds until one is allowed again. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A request the current state does not allow (a winner picked twice); `message` is the API's. */
export class StateConflictError extends Error {
  override name = 'StateConflictError';
}
