// The scheduler/ feature's surface, what the rest of the service may import (docs/architecture.md,
// "House rules"): scheduled campaigns handed to the outbox when due; the gauge of the oldest overdue
// one.
export { oldestOverdue } from './scheduler-store.js';
export { createScheduler } from './scheduler.js';
