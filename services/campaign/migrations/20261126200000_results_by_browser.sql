-- A finished campaign's results by browser family (an addition of 2026-11-26: the campaign
-- object's `delivery.byBrowser`), from the delivery service's stats events: json, the text as
-- the event carried it, so the answer shows it compact.
ALTER TABLE campaign.campaign_stats ADD COLUMN by_browser json;
