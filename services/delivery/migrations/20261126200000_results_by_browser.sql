-- A finished run's results by browser family (delivery.browser_of): computed once, by the counter
-- publisher, when the run is final and not yet published (tracking/counter-store.ts), then
-- published with its counters. Null while the run sends.
ALTER TABLE delivery.campaign_runs ADD COLUMN by_browser jsonb;
