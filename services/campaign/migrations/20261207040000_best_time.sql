-- A campaign sent at each subscriber's best time (docs/api-decisions.md, "Best time"): the
-- create's `delivery` as the dispatch job carries it, {withinHours, holdoutPercent}; null for others.
-- Nullable, no default: catalog work only.
ALTER TABLE campaign.campaigns ADD COLUMN best_time jsonb;
