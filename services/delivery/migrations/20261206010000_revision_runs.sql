-- Revisions of a sent campaign (update, recall: docs/api-decisions.md, "Update and recall") run
-- as runs of their own in delivery.campaign_runs, with the revised campaign named in their job.
-- The campaign events (campaign.dispatched, .completed, .failed) stay the campaign's alone.
-- Same function as 20261126150000_webhooks.sql with the revision test first; the triggers call it by name.
CREATE OR REPLACE FUNCTION delivery.webhook_campaign_run() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts json;
BEGIN
  -- A revision's run (its job names the campaign it revises) is no campaign of its own: its
  -- receivers heard of the campaign already, and would not know this id.
  IF NEW.job ? 'revision' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM delivery.emit_webhook_event(NEW.site_id, 'campaign.dispatched', json_build_object('campaignId', NEW.campaign_id));
    RETURN NULL;
  END IF;
  IF NEW.state NOT IN ('completed', 'failed') THEN
    RETURN NULL;
  END IF;
  -- Built as json (not through jsonb) so the keys keep this order; `reason` only when it failed.
  counts := json_build_object(
    'campaignId', NEW.campaign_id, 'audience', NEW.audience_size, 'sent', NEW.sent, 'failed', NEW.failed,
    'expired', NEW.expired, 'impressions', NEW.impressions, 'clicks', NEW.clicks,
    'failedBy', json_build_object('rejected', NEW.failed_rejected, 'unauthorized', NEW.failed_unauthorized,
                                  'unreachable', NEW.failed_unreachable, 'refused', NEW.failed_refused),
    'reason', NEW.reason);
  IF NEW.state = 'completed' THEN
    counts := json_build_object(
      'campaignId', NEW.campaign_id, 'audience', NEW.audience_size, 'sent', NEW.sent, 'failed', NEW.failed,
      'expired', NEW.expired, 'impressions', NEW.impressions, 'clicks', NEW.clicks,
      'failedBy', json_build_object('rejected', NEW.failed_rejected, 'unauthorized', NEW.failed_unauthorized,
                                    'unreachable', NEW.failed_unreachable, 'refused', NEW.failed_refused));
  END IF;
  PERFORM delivery.emit_webhook_event(NEW.site_id, 'campaign.' || NEW.state, counts);
  RETURN NULL;
END
$$;
