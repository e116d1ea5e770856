// The optin/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { FUNNEL_MESSAGES, createOptInFunnel, promptIdOf, purgeOptInFunnel } from './funnel.js';
export type { OptInFunnel } from './funnel.js';
export { createOptInFunnelHandlers } from './grpc-handlers.js';
