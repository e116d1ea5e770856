-- A campaign sent at each subscriber's best time (docs/api-decisions.md, "Best time"): the
-- create's `delivery` as the dispatch job carries it, {withinHours, holdoutPercent}; null for others.
-- Nullable, no default: catalog work only.
ALTER TABLE campaign.campaigns ADD COLUMN best_time jsonb;

-- Its results by slot as the delivery service reports them in its stats events (the holdout's is
-- slot -1): the set whose counters total, best_time_results_total, is greatest, as an A/B test's
-- results are kept (counters only grow, so a replayed or reordered event never wins).
ALTER TABLE campaign.campaign_stats
  ADD COLUMN best_time_results json,
  ADD COLUMN best_time_results_total bigint NOT NULL DEFAULT 0;
