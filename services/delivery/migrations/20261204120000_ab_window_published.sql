-- An A/B test's window end is published with the counters (the campaign's `abTest.windowEndsAt`,
-- issue 34: the console shows when the winner is due): its start counts as a change, like the
-- winner's choice.
DROP TRIGGER campaign_runs_stats_changed ON delivery.campaign_runs;
CREATE TRIGGER campaign_runs_stats_changed
  BEFORE UPDATE ON delivery.campaign_runs
  FOR EACH ROW
  WHEN ((OLD.state, OLD.reason, OLD.audience_size, OLD.sent, OLD.failed, OLD.expired, OLD.impressions, OLD.clicks,
         OLD.failed_rejected, OLD.failed_unauthorized, OLD.failed_unreachable, OLD.failed_refused, OLD.capped, OLD.ab_winner,
         OLD.ab_window_ends_at)
        IS DISTINCT FROM
        (NEW.state, NEW.reason, NEW.audience_size, NEW.sent, NEW.failed, NEW.expired, NEW.impressions, NEW.clicks,
         NEW.failed_rejected, NEW.failed_unauthorized, NEW.failed_unreachable, NEW.failed_refused, NEW.capped, NEW.ab_winner,
         NEW.ab_window_ends_at))
  EXECUTE FUNCTION delivery.campaign_runs_stats_changed();

-- Tests already started are published once more, now with their window's end (the campaign
-- service keeps the greatest counters, so publishing again is harmless).
UPDATE delivery.campaign_runs SET stats_published = 0 WHERE ab_window_ends_at IS NOT NULL;
