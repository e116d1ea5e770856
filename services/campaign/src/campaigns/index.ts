// The campaigns/ feature's surface, what the rest of the service may import (docs/architecture.md,
// "House rules"): create, a draft's edit, list, get, delete, export, the campaign rows and their cursors, the
// idempotency keys and their purge, the recount of audiences not counted at create, the delivery
// service's Audience client; the store's A/B variant count for ab-tests/; the content fields' rules for revisions/, templates/ and notifications/ (with the create's other content fields, its sendTime and its idempotency keys).
export { createAudienceClient } from './audience-client.js';
export { createAudienceRecount } from './audience-recount.js';
export { campaignByIdUseCases } from './campaign-by-id.js';
export { abTestVariantCount } from './campaigns-store.js';
export { bestTimeField } from './best-time-input.js';
export { CONTENT_FIELD_RULES } from './content-fields.js';
export { checkCreateBodyUseCase, createCampaignUseCase } from './create-campaign.js';
export type { AudienceCounter, CreateCampaignDeps, CreateClaim } from './create-campaign.js';
export { updateDraftUseCase } from './update-draft.js';
export { CONTENT_INPUT_FIELDS, DEFAULT_TTL_SECONDS, ttlField, utmField, validateAudienceInput, validateContentInput, validateCreateInput } from './create-input.js';
export { claimKey, claimKeys, findFreshKey } from './idempotency-store.js';
export { notificationOptionsField, urgencyField } from './notification-options-input.js';
export { createCursorCodec, listingPage } from './cursor.js';
export type { CursorCodec, ListingPage } from './cursor.js';
export { exportCampaignsUseCase } from './export-campaigns.js';
export { createFixedPartsCache } from './fixed-parts-cache.js';
export { createIdempotencyPurge } from './idempotency-purge.js';
export { listCampaignsUseCase } from './list-campaigns.js';
export { planPreviewUseCase } from './plan-preview.js';
export type { BestTimePlanner } from './plan-preview.js';
