-- Local-time delivery and A/B tests (docs/api-decisions.md "Local time", "A/B tests"): a run
-- whose dispatch carries either is expanded in stages (sending/stages.ts), each due at its own
-- moment: one per zone group for local time, each split into the test share and the rest for an
-- A/B test. The pacer (sending/pacer.ts) expands the due stages, every run's at its pace.

-- A site's default zone, for subscribers without a zone (or with one the runtime does not know).
-- Null reads as UTC. Set by operators: `sites set-time-zone`.
ALTER TABLE delivery.sites ADD COLUMN time_zone text;

-- A run's stages. `at` is the stage's planned moment; a `rest` stage waits also for the A/B
-- winner (or the end of the test window). Zones: `zones` lists the subscribers' zone names it
-- sends; `other_zones` sends instead every subscriber whose zone is none of those (the site
-- default's group: no zone, an unknown zone, or a zone reported after the plan was made).
CREATE TABLE delivery.run_stages (
  campaign_id uuid NOT NULL REFERENCES delivery.campaign_runs (campaign_id) ON DELETE CASCADE,
  stage_no integer NOT NULL,
  at timestamptz NOT NULL,
  zones text[],
  other_zones boolean NOT NULL DEFAULT false,
  ab_group text CHECK (ab_group IN ('test', 'rest')),
  expanded_through bigint NOT NULL DEFAULT 0,
  done boolean NOT NULL DEFAULT false,
  PRIMARY KEY (campaign_id, stage_no)
);

-- A/B tests: when the test window ends (set when the first test stage starts), the winner
-- ({variant, decidedAt, by}) once chosen, and each variant's results within the test share
-- (tracking/counter-store.ts), refreshed at most every few seconds: ab_results_version is the
-- stats_version they were computed at, and a run is published only with results of its version.
ALTER TABLE delivery.campaign_runs
  ADD COLUMN ab_window_ends_at timestamptz,
  ADD COLUMN ab_winner jsonb,
  ADD COLUMN ab_results jsonb,
  ADD COLUMN ab_results_at timestamptz,
  ADD COLUMN ab_results_version bigint NOT NULL DEFAULT 0;
CREATE INDEX campaign_runs_ab_undecided ON delivery.campaign_runs (ab_window_ends_at) WHERE ab_winner IS NULL AND ab_window_ends_at IS NOT NULL;

-- A subscriber's A/B bucket for a campaign: 28 bits of md5, as packages/contracts/src/ab-test.ts
-- computes it (no FROM: inlined into the queries that use it).
CREATE FUNCTION delivery.ab_bucket(campaign_id uuid, subscriber_id bigint) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN ('x' || substr(md5(campaign_id::text || ':' || subscriber_id::text), 1, 7))::bit(28)::integer;

-- The winner is published with the counters: its choice counts as a change.
DROP TRIGGER campaign_runs_stats_changed ON delivery.campaign_runs;
CREATE TRIGGER campaign_runs_stats_changed
  BEFORE UPDATE ON delivery.campaign_runs
  FOR EACH ROW
  WHEN ((OLD.state, OLD.reason, OLD.audience_size, OLD.sent, OLD.failed, OLD.expired, OLD.impressions, OLD.clicks,
         OLD.failed_rejected, OLD.failed_unauthorized, OLD.failed_unreachable, OLD.failed_refused, OLD.capped, OLD.ab_winner)
        IS DISTINCT FROM
        (NEW.state, NEW.reason, NEW.audience_size, NEW.sent, NEW.failed, NEW.expired, NEW.impressions, NEW.clicks,
         NEW.failed_rejected, NEW.failed_unauthorized, NEW.failed_unreachable, NEW.failed_refused, NEW.capped, NEW.ab_winner))
  EXECUTE FUNCTION delivery.campaign_runs_stats_changed();

-- Throttled runs being paced when this migration runs continue as one stage, where they were.
INSERT INTO delivery.run_stages (campaign_id, stage_no, at, expanded_through)
SELECT campaign_id, 0, created_at, expanded_through FROM delivery.campaign_runs WHERE state = 'expanding' AND next_expand_at IS NOT NULL;
