-- A notification's per-target outcomes kept with its targets once its run is final (completed or
-- failed): until then they are read from its delivery-log rows, which retention drops in whole
-- weekly pieces (docs/operations.md, "Retention"); GET /v2/notifications/{id} answers them after
-- that too, from here (services/delivery/src/sending/notification-store.ts). `outcome` as the
-- results name it; `reason` a failure's, '' otherwise. NULL until the run is final.
ALTER TABLE delivery.notification_targets ADD COLUMN IF NOT EXISTS outcome text, ADD COLUMN IF NOT EXISTS reason text;

-- The outcome rule is notification-store.ts's OUTCOME: a target resolved to no subscriber, or one
-- the push service said is gone (404/410: expired), has no subscription.
CREATE OR REPLACE FUNCTION delivery.freeze_notification_outcomes(run uuid, piece date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  log regclass := to_regclass(CASE WHEN piece IS NULL THEN 'delivery.delivery_log' ELSE 'delivery.delivery_log_' || to_char(piece, 'YYYYMMDD') END);
BEGIN
  IF log IS NULL THEN
    RETURN;
  END IF;
  EXECUTE format(
    $q$UPDATE delivery.notification_targets t
          SET outcome = CASE WHEN t.subscriber_id IS NULL OR l.state = 'expired' THEN 'noSubscription'
                             WHEN l.state IN ('sent', 'capped', 'failed') THEN l.state ELSE 'pending' END,
              reason = CASE WHEN l.state = 'failed' THEN coalesce(l.reason, '') ELSE '' END
         FROM delivery.notification_targets t2 LEFT JOIN %s l ON l.campaign_id = t2.notification_id AND l.subscriber_id = t2.subscriber_id
        WHERE t2.notification_id = $1 AND t.notification_id = t2.notification_id AND t.position = t2.position$q$,
    log) USING run;
END
$$;

-- Same function as 20261207070000_notification_targets.sql, its outcomes frozen before the
-- notification's event; the triggers call it by name.
CREATE OR REPLACE FUNCTION delivery.webhook_campaign_run() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts json;
  unresolved integer;
BEGIN
  IF NEW.job ? 'notification' THEN
    IF TG_OP = 'INSERT' OR NEW.state NOT IN ('completed', 'failed') THEN
      RETURN NULL;
    END IF;
    PERFORM delivery.freeze_notification_outcomes(NEW.campaign_id, NEW.log_piece);
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
