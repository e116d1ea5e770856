-- The groups' per-profile counts backfill (20261205140000_audience_group_profiles.sql) merged
-- into `counts`, 200 rows per transaction, so no subscribe waits long on a transaction's row locks
-- (on the 2-core machine at load 14, a batch of 200 took 11–25 ms, one of 2,000 90–270 ms: each
-- change rewrites its group's array). Safe to run again: each batch leaves the backfill table in
-- the transaction that merges it.
-- migrate: without transaction
CALL delivery.audience_counts_merge_backfill(200);
