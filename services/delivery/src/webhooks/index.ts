// The webhooks/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { DEFAULT_WEBHOOK_LOOP, createWebhookLoop } from './delivery-loop.js';
export type { WebhookLoop, WebhookLoopOptions } from './delivery-loop.js';
export { createWebhookEndpoints } from './endpoints.js';
export type { WebhookEndpoints } from './endpoints.js';
export { createWebhookHandlers } from './grpc-handlers.js';
export { createWebhookMetrics } from './metrics.js';
export { resealWebhookSecrets } from './secrets.js';
export { createWebhookSender } from './sender.js';
