-- Frequency caps (docs/api-decisions.md, "Frequency caps"): a site may allow at most
-- cap_campaigns campaigns per subscriber in any cap_hours; a campaign may opt out. Enforced when
-- a push is claimed (sending/delivery-log-store.ts claimCapped).
ALTER TABLE delivery.sites
  ADD COLUMN cap_campaigns integer CHECK (cap_campaigns > 0),
  ADD COLUMN cap_hours integer CHECK (cap_hours > 0 AND cap_hours <= 720),
  ADD CONSTRAINT sites_cap_whole CHECK ((cap_campaigns IS NULL) = (cap_hours IS NULL));

-- Which campaigns each subscriber of a capped site was claimed for, and when: what the cap counts
-- (opted-out campaigns too: they did reach the subscriber). Kept only while a site has a cap; a
-- claim drops the rows of its subscribers older than the longest window (720 hours).
CREATE TABLE delivery.subscriber_pushes (
  subscriber_id bigint NOT NULL,
  campaign_id uuid NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subscriber_id, campaign_id)
);

-- A push not sent because its subscriber had reached the cap: final, like sent or failed. Added
-- NOT VALID: swapping the constraint holds an ACCESS EXCLUSIVE lock on the delivery log (every
-- send waits) only for the catalog change; the next migration validates the existing rows under
-- a lock that lets sends go on.
ALTER TABLE delivery.delivery_log DROP CONSTRAINT delivery_log_state_check;
ALTER TABLE delivery.delivery_log
  ADD CONSTRAINT delivery_log_state_check CHECK (state IN ('claimed', 'sending', 'sent', 'expired', 'failed', 'capped')) NOT VALID;

-- The run's capped pushes, published with its other counters: the stats trigger watches it too.
ALTER TABLE delivery.campaign_runs ADD COLUMN capped bigint NOT NULL DEFAULT 0;
DROP TRIGGER campaign_runs_stats_changed ON delivery.campaign_runs;
CREATE TRIGGER campaign_runs_stats_changed
  BEFORE UPDATE ON delivery.campaign_runs
  FOR EACH ROW
  WHEN ((OLD.state, OLD.reason, OLD.audience_size, OLD.sent, OLD.failed, OLD.expired, OLD.impressions, OLD.clicks,
         OLD.failed_rejected, OLD.failed_unauthorized, OLD.failed_unreachable, OLD.failed_refused, OLD.capped)
        IS DISTINCT FROM
        (NEW.state, NEW.reason, NEW.audience_size, NEW.sent, NEW.failed, NEW.expired, NEW.impressions, NEW.clicks,
         NEW.failed_rejected, NEW.failed_unauthorized, NEW.failed_unreachable, NEW.failed_refused, NEW.capped))
  EXECUTE FUNCTION delivery.campaign_runs_stats_changed();
