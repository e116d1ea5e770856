-- The idempotency-key purge deletes rows older than 24 hours, oldest first, in small batches:
-- without this index every batch would scan the whole table.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
