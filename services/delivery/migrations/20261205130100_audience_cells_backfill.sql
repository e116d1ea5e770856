-- The audience cells' backfill (20261205130000_audience_cells.sql) merged into the cells, 2,000
-- rows per transaction, so no subscribe waits on a long transaction's row locks. Safe to run
-- again: each batch leaves the backfill table in the transaction that merges it.
-- migrate: without transaction
CALL delivery.audience_cells_merge_backfill(2000);
