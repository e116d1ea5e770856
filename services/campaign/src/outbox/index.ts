// The outbox/ feature's surface, what the rest of the service may import (docs/architecture.md,
// "House rules"): dispatch jobs (and revision and notification jobs) written in the campaign's transaction, relayed to Kafka; the relay's
// backlog gauges.
export { dispatchJob, notificationJob, revisionJob } from './dispatch-job.js';
export { createOutboxRelay } from './outbox-relay.js';
export { insertOutbox } from './outbox-store.js';
export { backlog, oldestUnpublishedAge } from './relay-store.js';
