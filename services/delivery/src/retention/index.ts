// The retention/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { LONGEST_CAP_WINDOW_DAYS, createRetention } from './retention.js';
export type { RetentionSettings } from './retention.js';
export { databaseSizeGauges } from './size-metrics.js';
