-- Throttled campaigns (docs/api-decisions.md, "Throttling"): their audience is expanded a chunk
-- at a time by the pacer (sending/pacer.ts), the next chunk due at next_expand_at. Null for runs
-- expanded at once (every run without a throttle).
ALTER TABLE delivery.campaign_runs ADD COLUMN next_expand_at timestamptz;
CREATE INDEX campaign_runs_paced ON delivery.campaign_runs (next_expand_at) WHERE state = 'expanding' AND next_expand_at IS NOT NULL;
