-- Frequency caps (an addition of 2026-11-26: docs/api-decisions.md, "Frequency caps"): a campaign
-- created with ignoreFrequencyCap is sent to subscribers who reached their site's cap; `capped`
-- counts the subscribers a campaign was not sent to because of the cap (from the delivery
-- service's stats events, greatest value wins like the other counters).
ALTER TABLE campaign.campaigns ADD COLUMN ignore_frequency_cap boolean NOT NULL DEFAULT false;
ALTER TABLE campaign.campaign_stats ADD COLUMN capped bigint NOT NULL DEFAULT 0;
