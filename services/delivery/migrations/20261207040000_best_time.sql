-- Best time per subscriber (docs/api-decisions.md, "Best time"): a campaign with
-- `delivery: {mode: "bestTime"}` reaches each subscriber in the hour of its window they are most
-- likely to engage in, and a holdout share at once.
--
-- The model: per subscriber, 24 weights, one per hour of the day (UTC), of its impressions and
-- clicks, each decaying by half every 14 days. Kept by the tracking trigger that already keeps
-- the last engagement (20261207040100_best_time_history.sql), one upsert per stored batch:
-- bounded work per report, no pass over history. A table of its own, not columns of delivery.subscribers (20261126160000_subscriber_engagement.sql
-- says why: an UPDATE there runs the audience counters' statement triggers).
CREATE TABLE IF NOT EXISTS delivery.subscriber_hours (
  subscriber_id bigint PRIMARY KEY REFERENCES delivery.subscribers (id) ON DELETE CASCADE,
  -- weights[h + 1]: the decayed engagement in UTC hour h, as of weighed_at.
  weights real[] NOT NULL CHECK (array_length(weights, 1) = 24),
  weighed_at timestamptz NOT NULL
);

-- How much an event weighs: a click says more about the hour than an impression.
CREATE FUNCTION delivery.hour_event_weight(kind text) RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE kind WHEN 'click' THEN 3 ELSE 1 END;

-- The factor by which a weight from `since` has decayed at `at`: a half-life of 14 days.
CREATE FUNCTION delivery.hour_decay(since timestamptz, at timestamptz) RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN power(0.5, greatest(0, extract(epoch FROM at - since)) / (14 * 86400))::real;

-- How many events of its own a subscriber's profile is worth against its site's prior: a
-- subscriber with this much decayed weight counts half its own hours, half the site's.
CREATE FUNCTION delivery.best_time_prior_weight() RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN 3;

-- The slot of a best-time window a subscriber is sent in: of `slots` hourly slots whose first
-- is in UTC hour `first_hour`, the one whose hour has the highest engagement, the subscriber's
-- weights (decayed to `at`) blended with the site's prior (its hours' shares, summing to 1) by
-- evidence: (w[h] + k·prior[h]) / (Σw + k). A tie (a subscriber and a site without history:
-- every hour alike) goes to the earliest slot, so a window longer than a day sends each hour's
-- best in its first occurrence.
CREATE FUNCTION delivery.best_time_slot(weights real[], weighed_at timestamptz, prior real[], first_hour integer, slots integer, at timestamptz)
  RETURNS integer LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
-- A loop, not a query over generate_series: it runs once per subscriber of the audience when a
-- run is planned, and the loop is about 25 times cheaper (no array rebuilt, no sort).
DECLARE
  decay real := delivery.hour_decay(weighed_at, at);
  best integer := 0;
  top real := -1;
  score real;
  h integer;
BEGIN
  FOR k IN 0 .. slots - 1 LOOP
    h := (first_hour + k) % 24 + 1;
    score := coalesce(weights[h] * decay, 0) + delivery.best_time_prior_weight() * prior[h];
    IF score > top THEN
      top := score;
      best := k;
    END IF;
  END LOOP;
  RETURN best;
END
$$;

-- A subscriber's holdout bucket for a campaign, 0–99: independent of its A/B bucket (another
-- salt), so the holdout is a share of every variant alike.
CREATE FUNCTION delivery.holdout_bucket(campaign_id uuid, subscriber_id bigint) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (('x' || substr(md5('holdout:' || campaign_id::text || ':' || subscriber_id::text), 1, 7))::bit(28)::bigint * 100 >> 28)::integer;

-- Each subscriber's slot in a best-time run, frozen when the run is planned (sending/stages.ts),
-- so the stages read one assignment however the weights move while the window runs: nobody is
-- in two slots or in none. -1 is the holdout (sent at once). A subscriber who joins after the
-- plan has no row and goes with the last slot.
CREATE TABLE delivery.best_time_slots (
  campaign_id uuid NOT NULL REFERENCES delivery.campaign_runs (campaign_id) ON DELETE CASCADE,
  subscriber_id bigint NOT NULL,
  slot smallint NOT NULL,
  PRIMARY KEY (campaign_id, subscriber_id)
);

-- A stage's slot of a best-time run (null: not a best-time stage).
ALTER TABLE delivery.run_stages ADD COLUMN best_time_slot smallint;

-- A best-time run's results by slot (sending/best-time-store.ts), recomputed at most every few
-- seconds while its counters change and published with them, as an A/B run's variant results
-- are: best_time_results_version is the stats_version they were computed at.
ALTER TABLE delivery.campaign_runs
  ADD COLUMN best_time_results jsonb,
  ADD COLUMN best_time_results_at timestamptz,
  ADD COLUMN best_time_results_version bigint NOT NULL DEFAULT 0;
