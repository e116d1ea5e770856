-- A/B tests (an addition of 2026-11-27: docs/api-decisions.md, "A/B tests"). ab_test: the test as
-- validated (variants, testPercent, winnerMetric, windowMinutes), json so the keys keep their
-- order; null for a campaign without one. In campaign_stats, from the delivery service's stats
-- events: ab_results, each variant's counters within the test share (the set whose counters
-- total, ab_results_total, is greatest: counters only grow, so a replayed or reordered event
-- never replaces a later one), and the winner, the first one reported (or picked by the customer
-- through POST /v2/campaign/{id}/winner), never replaced.
ALTER TABLE campaign.campaigns ADD COLUMN ab_test json;
ALTER TABLE campaign.campaign_stats
  ADD COLUMN ab_results json,
  ADD COLUMN ab_results_total bigint NOT NULL DEFAULT 0,
  ADD COLUMN ab_winner_variant integer,
  ADD COLUMN ab_winner_decided_at timestamptz,
  ADD COLUMN ab_winner_by text CHECK (ab_winner_by IN ('metric', 'customer'));
