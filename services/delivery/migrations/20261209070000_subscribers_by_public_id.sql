-- Subscribers by the id the API shows (public_id): a notification's targets are resolved from the
-- subscription ids its call named (sending/notification-store.ts resolveTargets). Without an
-- index each notification read every subscriber of its site: beside a 200,000-subscriber
-- campaign of the same site its dispatch took 12–20 s, and the lane's four connections held it
-- back to about ten notifications a second (docs/performance.md, "Notifications beside a
-- campaign"). Built CONCURRENTLY (a plain CREATE INDEX blocks every subscribe for the build); an
-- invalid index left by a failed concurrent build is dropped first, so the file can run again.
-- migrate: without transaction
DROP INDEX CONCURRENTLY IF EXISTS delivery.subscribers_public_id;
CREATE INDEX CONCURRENTLY subscribers_public_id ON delivery.subscribers (public_id);
