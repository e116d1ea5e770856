// The sending/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { createBestTimePlanHandlers, createBestTimePlanner } from './best-time-plan.js';
export type { BestTimePlanner } from './best-time-plan.js';
export { bestTimeResults } from './best-time-store.js';
export { createChunkWorker } from './chunk-worker.js';
export { frequencyCapOf } from './delivery-log-store.js';
export type { FrequencyCap } from './delivery-log-store.js';
export { createDispatchHandler } from './dispatch.js';
export { createRunsHandlers } from './grpc-handlers.js';
export { createLeases } from './leases.js';
export { CHUNKS_GROUP, DISPATCH_GROUP, createDeliveryMessaging } from './messaging.js';
export type { DeliveryHandlers } from './messaging.js';
export { createLanePriority } from './lane-priority.js';
export { createPacer } from './pacer.js';
export type { Pacer } from './pacer.js';
export { findRun } from './run-store.js';
export { contentsFor } from './run-content.js';
