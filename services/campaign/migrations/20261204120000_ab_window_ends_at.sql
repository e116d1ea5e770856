-- When an A/B test's window ends (the campaign's `abTest.windowEndsAt`, an addition of
-- 2026-12-04), from the delivery service's stats events: null until the test's first send.
ALTER TABLE campaign.campaign_stats ADD COLUMN ab_window_ends_at timestamptz;
