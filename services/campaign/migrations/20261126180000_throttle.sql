-- Throttling (an addition of 2026-11-26: docs/api-decisions.md, "Throttling"): a campaign's
-- maximum rate in pushes per minute (null: as fast as the platform goes), and a site's default,
-- which a campaign created without `throttlePerMinute` takes (set by operators:
-- `sites set-throttle`).
ALTER TABLE campaign.campaigns ADD COLUMN throttle_per_minute integer CHECK (throttle_per_minute > 0);
ALTER TABLE campaign.sites ADD COLUMN default_throttle_per_minute integer CHECK (default_throttle_per_minute > 0);
