-- Impressions and clicks per campaign per minute: the console's campaign chart (docs/console.md,
-- "Time series"; issue 14), kept as reports are stored so that no console answer reads
-- delivery.tracking. Minutes are UTC.

-- Added to by the statement that stores tracking reports (tracking/counter-store.ts
-- recordTracking), in the same statement as the reports and the run's counters, so a minute's
-- row always equals a count of the campaign's delivery.tracking rows of that minute. A row exists
-- only for a minute with at least one report: a campaign has at most one row per minute it was
-- reported in, whose sum is bounded by its audience (one impression and one click per
-- subscriber). A campaign's series reads its own rows only (the primary key's prefix), per
-- minute for its first 48 hours and per hour after, rolled up at read time (tracking/series.ts).
CREATE TABLE delivery.campaign_minutes (
  campaign_id uuid NOT NULL,
  -- The minute's first instant (UTC).
  minute timestamptz NOT NULL,
  impressions bigint NOT NULL DEFAULT 0,
  clicks bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, minute)
);

-- The reports stored so far. Reports stored by an instance of the previous release while the
-- roll-out runs (its statement does not know this table) are in the run's counters but not in
-- these rows: a campaign sending during an upgrade may show a little less in its chart than in
-- its totals for those minutes.
INSERT INTO delivery.campaign_minutes (campaign_id, minute, impressions, clicks)
SELECT campaign_id, date_trunc('minute', at, 'UTC'), count(*) FILTER (WHERE kind = 'impression'), count(*) FILTER (WHERE kind = 'click')
  FROM delivery.tracking
 GROUP BY 1, 2;
