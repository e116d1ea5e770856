-- Throttling for automations (docs/api-decisions.md, "Automations", "Throttling"): at most
-- `throttle_per_minute` of the automation's due steps a minute (null: no limit), paced by its
-- clock `paced_until` — the end of the last slot taken, each step a slot of 60 s ÷ the rate,
-- advanced in the runner's claim transaction under the row's lock, never from a time in the past
-- (null: no step taken yet). Both columns are null for every existing row and the previous
-- release never reads them (it sends a throttled automation's steps unthrottled during a rolling
-- upgrade). Nullable, no default: no table rewrite; the CHECK reads the table once (a few rows per site).
ALTER TABLE automations ADD COLUMN throttle_per_minute integer CHECK (throttle_per_minute BETWEEN 1 AND 1000000);
ALTER TABLE automations ADD COLUMN paced_until timestamptz;
