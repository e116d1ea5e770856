-- The audience cells (20261205130000_audience_cells.sql) are replaced by the groups' per-profile
-- counts, complete since 20261205140100: their triggers stop (subscriber writes wait only for
-- this catalog change) and their tables, functions and types go.
-- contract: the cells came after deploy/previous-release (20261205130000) and only this release's
-- code, before this change, read them; the previous release never did.
DROP TRIGGER IF EXISTS subscribers_cells_insert ON delivery.subscribers;
DROP TRIGGER IF EXISTS subscribers_cells_update ON delivery.subscribers;
DROP TRIGGER IF EXISTS subscribers_cells_delete ON delivery.subscribers;
DROP FUNCTION IF EXISTS delivery.subscribers_cells_insert(), delivery.subscribers_cells_update(), delivery.subscribers_cells_delete();
DROP PROCEDURE IF EXISTS delivery.audience_cells_merge_backfill(integer);
DROP FUNCTION IF EXISTS delivery.audience_cells_apply(delivery.audience_cell_delta[]);
DROP TYPE IF EXISTS delivery.audience_cell_delta;
DROP TABLE IF EXISTS delivery.audience_cells, delivery.audience_profiles, delivery.audience_cells_backfill;
-- Empty once merged; the procedure that merges it is needed no more.
DROP PROCEDURE IF EXISTS delivery.audience_counts_merge_backfill(integer);
DROP TABLE IF EXISTS delivery.audience_counts_backfill;
