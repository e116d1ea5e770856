// The `message` texts that both the gateway and the campaign service answer (each answers them
// at its own boundary), written once; each catalogue (gateway/src/texts.ts,
// services/campaign/src/base/texts.ts) takes them in. SHARED_SPEC are the spec's words;
// SHARED_OWN are ours (docs/api-decisions.md, "Idempotency-Key").
export const SHARED_SPEC = {
  notAuthorized: 'Not authorized',
  invalidJson: 'Invalid JSON body',
  campaignNotFound: 'Campaign not found',
  alreadySent: 'Cannot delete a campaign that has already been sent',
  errorCreating: 'Error creating campaign',
  internal: 'Internal server error',
} as const;

export const SHARED_OWN = {
  idempotencyMismatch: 'Idempotency-Key was already used with a different request body',
  idempotencyKeyFormat: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  /** 503 with Retry-After: no database connection within its bound (docs/api-decisions.md, "Busy"). */
  serviceBusy: 'Service busy; retry after Retry-After seconds',
} as const;

/** What an Idempotency-Key may be: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
