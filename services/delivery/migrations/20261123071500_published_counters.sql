-- Counters are published from what is stored (issue 11, defects 4 and 6).
--
-- failed_<class>: the run's failed pushes by why they failed (sending/failure-class.ts), added to
-- in the same statement as `failed` (db/runs.ts recordOutcomes).
--
-- stats_version / stats_published: every change of a counter the stats event carries bumps
-- stats_version (trigger below, so no statement that changes a counter has to remember it); the
-- counter publisher (sending/counter-publisher.ts) publishes the runs whose version is ahead of
-- stats_published, then records the version it published. A report stored while Kafka is down
-- is therefore published once Kafka is back, without anyone retrying it. Existing runs start
-- one version ahead, so they are published once after this migration (harmless: the campaign
-- service keeps the greatest value of each counter).
ALTER TABLE delivery.campaign_runs
  ADD COLUMN failed_rejected bigint NOT NULL DEFAULT 0,
  ADD COLUMN failed_unauthorized bigint NOT NULL DEFAULT 0,
  ADD COLUMN failed_unreachable bigint NOT NULL DEFAULT 0,
  ADD COLUMN failed_refused bigint NOT NULL DEFAULT 0,
  ADD COLUMN stats_version bigint NOT NULL DEFAULT 1,
  ADD COLUMN stats_published bigint NOT NULL DEFAULT 0;

CREATE FUNCTION delivery.campaign_runs_stats_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.stats_version := OLD.stats_version + 1;
  RETURN NEW;
END
$$;

CREATE TRIGGER campaign_runs_stats_changed
  BEFORE UPDATE ON delivery.campaign_runs
  FOR EACH ROW
  WHEN ((OLD.state, OLD.reason, OLD.audience_size, OLD.sent, OLD.failed, OLD.expired, OLD.impressions, OLD.clicks,
         OLD.failed_rejected, OLD.failed_unauthorized, OLD.failed_unreachable, OLD.failed_refused)
        IS DISTINCT FROM
        (NEW.state, NEW.reason, NEW.audience_size, NEW.sent, NEW.failed, NEW.expired, NEW.impressions, NEW.clicks,
         NEW.failed_rejected, NEW.failed_unauthorized, NEW.failed_unreachable, NEW.failed_refused))
  EXECUTE FUNCTION delivery.campaign_runs_stats_changed();

-- The publisher's only read: runs with unpublished changes (few at any time).
CREATE INDEX campaign_runs_unpublished_idx ON delivery.campaign_runs (campaign_id) WHERE stats_version > stats_published;
