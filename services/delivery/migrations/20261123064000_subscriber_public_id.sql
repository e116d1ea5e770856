-- The id anonymous callers see (the subscribe answer): a random UUID, so it reveals neither how
-- many subscribers there are nor in which order they came, unlike the bigserial `id` (which
-- stays the internal key: keyset pagination, the delivery log, tracking tokens).
-- Added without a table rewrite: the column is nullable and only new rows get the default at
-- once; a row from before gets its UUID the next time its browser subscribes (the only answer
-- that shows it), see upsertSubscriber. Never looked up by it, so no index.
ALTER TABLE subscribers ADD COLUMN public_id uuid;
ALTER TABLE subscribers ALTER COLUMN public_id SET DEFAULT gen_random_uuid();
