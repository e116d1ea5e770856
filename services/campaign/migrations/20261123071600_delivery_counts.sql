-- The campaign's delivery counts (the API's optional `delivery` object, added 2026-11-23), kept
-- like the other counters from the delivery service's stats events, greatest value wins:
-- audience: subscribers the delivery service took into the run (pending = audience − sent −
-- failed − expired until the run is finished); failed_<class>: failed pushes by why
-- (rejected, unauthorized, unreachable, refused; see packages/contracts/src/messages.ts);
-- delivery_finished: the run completed or failed (nothing is pending any more). Runs finished
-- before this migration are published again by the delivery service's own migration, which
-- fills these in.
ALTER TABLE campaign_stats
  ADD COLUMN audience bigint NOT NULL DEFAULT 0,
  ADD COLUMN failed_rejected bigint NOT NULL DEFAULT 0,
  ADD COLUMN failed_unauthorized bigint NOT NULL DEFAULT 0,
  ADD COLUMN failed_unreachable bigint NOT NULL DEFAULT 0,
  ADD COLUMN failed_refused bigint NOT NULL DEFAULT 0,
  ADD COLUMN delivery_finished boolean NOT NULL DEFAULT false;
