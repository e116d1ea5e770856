// The tracking/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { createCounterPublisher } from './counter-publisher.js';
export { createTrackingRecorder } from './recorder.js';
export { clickUrls } from './click-url.js';
export { eventRoutes } from './routes.js';
export { campaignSeries } from './series.js';
export type { CampaignSeries } from './series.js';
export { trackingTokensFor } from './tracking-token.js';
