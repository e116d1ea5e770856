// The stats/ feature's surface, what the rest of the service may import (docs/architecture.md,
// "House rules"): the counters the delivery service reports, and an A/B test's winner, stored.
export { applyStats, recordWinner } from './stats-store.js';
