-- Notifications to chosen subscriptions (POST /v2/notifications; docs/api-decisions.md,
-- "Notifications") run as runs of their own in delivery.campaign_runs (the job names its targets).
-- Each target — a public subscriber id, at its position in the request — is resolved once, when
-- the run is created, to the site's active subscriber (NULL: none, the result `noSubscription`);
-- its outcome is then its delivery-log row's. Kept with the run (retention does not take
-- these rows yet: docs/api-decisions.md, "Notifications").
CREATE TABLE delivery.notification_targets (
  notification_id uuid NOT NULL REFERENCES delivery.campaign_runs (campaign_id) ON DELETE CASCADE,
  position        integer NOT NULL,
  subscription_id uuid NOT NULL,
  subscriber_id   bigint,
  PRIMARY KEY (notification_id, position)
);
CREATE INDEX notification_targets_subscriber_idx ON delivery.notification_targets (notification_id, subscriber_id) WHERE subscriber_id IS NOT NULL;

-- A notification's run has no campaign events: it has its own, notification.sent, when it ends,
-- with its targets counted by outcome (the list is GET /v2/notifications/{id}'s: a bounded body).
-- Same function as 20261206010000_revision_runs.sql with the notification test first; the triggers call it by name.
CREATE OR REPLACE FUNCTION delivery.webhook_campaign_run() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts json;
  unresolved integer;
BEGIN
  IF NEW.job ? 'notification' THEN
    IF TG_OP = 'INSERT' OR NEW.state NOT IN ('completed', 'failed') THEN
      RETURN NULL;
    END IF;
    SELECT count(*) INTO unresolved FROM delivery.notification_targets WHERE notification_id = NEW.campaign_id AND subscriber_id IS NULL;
    counts := json_build_object(
      'notificationId', NEW.campaign_id, 'status', NEW.state,
      'targets', jsonb_array_length(NEW.job->'notification'->'subscriptionIds'),
      'sent', NEW.sent, 'noSubscription', unresolved + NEW.expired, 'capped', NEW.capped, 'failed', NEW.failed,
      'reason', NEW.reason);
    PERFORM delivery.emit_webhook_event(NEW.site_id, 'notification.sent', counts);
    RETURN NULL;
  END IF;
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
