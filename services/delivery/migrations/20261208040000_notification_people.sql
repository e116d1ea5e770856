-- A notification to people (POST /v2/notifications with `externalIds`; docs/api-decisions.md,
-- "Notifications"). A target is now a subscription named (`subscription_id`) or a person named
-- (`external_id`). A person is resolved once, when the run is created, to their active
-- subscriptions: one row per subscriber, or one row without a subscriber when they have none
-- (`noSubscription`). Their rows share `target`, the person's position in the request, and each
-- has a `position` of its own (1, 2, … over all the rows), so the key stays (notification,
-- position): the previous release's statements (ON CONFLICT on it, the outcomes frozen by it)
-- keep working during a rolling upgrade. A subscription's row has no `target`: its position is
-- its place in the request. A person's outcome is derived from their rows'
-- (services/delivery/src/sending/notification-store.ts, PERSON_RANK).
ALTER TABLE delivery.notification_targets ALTER COLUMN subscription_id DROP NOT NULL, ADD COLUMN external_id text, ADD COLUMN target integer;
ALTER TABLE delivery.notification_targets ADD CONSTRAINT notification_targets_one_kind
  CHECK ((subscription_id IS NULL) <> (external_id IS NULL) AND (target IS NULL) = (external_id IS NULL));

-- A person's outcome from their rows' (frozen) outcomes: sent when any subscription was sent,
-- else pending, failed, capped, noSubscription in that order; the reason is the chosen row's.
-- The same rule as notification-store.ts's PERSON_RANK (which reads unfrozen rows too).
CREATE OR REPLACE FUNCTION delivery.notification_outcome_rank(outcome text) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE outcome WHEN 'sent' THEN 0 WHEN 'pending' THEN 1 WHEN 'failed' THEN 2 WHEN 'capped' THEN 3 ELSE 4 END
$$;

-- Same function as 20261207070100_notification_outcomes.sql, with a notification to people: its
-- counts are by person (from the outcomes just frozen), and for at most 100 people the event
-- carries each one's result too (`results`: an automation's step names one person, and its
-- receiver wants to know what became of them without a call back).
CREATE OR REPLACE FUNCTION delivery.webhook_campaign_run() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts json;
  unresolved integer;
  c record;
BEGIN
  IF NEW.job ? 'notification' THEN
    IF TG_OP = 'INSERT' OR NEW.state NOT IN ('completed', 'failed') THEN
      RETURN NULL;
    END IF;
    PERFORM delivery.freeze_notification_outcomes(NEW.campaign_id, NEW.log_piece);
    IF NEW.job->'notification' ? 'externalIds' THEN
      SELECT count(*) FILTER (WHERE p.outcome = 'sent') AS sent,
             count(*) FILTER (WHERE p.outcome = 'noSubscription') AS no_subscription,
             count(*) FILTER (WHERE p.outcome = 'capped') AS capped,
             count(*) FILTER (WHERE p.outcome = 'failed') AS failed,
             CASE WHEN count(*) <= 100
                  THEN json_agg(json_build_object('externalId', p.external_id, 'outcome', p.outcome, 'reason', nullif(p.reason, '')) ORDER BY p.position)
             END AS results
        INTO c
        FROM (SELECT t.target AS position, max(t.external_id) AS external_id,
                     (array_agg(coalesce(t.outcome, 'pending') ORDER BY delivery.notification_outcome_rank(coalesce(t.outcome, 'pending'))))[1] AS outcome,
                     (array_agg(coalesce(t.reason, '') ORDER BY delivery.notification_outcome_rank(coalesce(t.outcome, 'pending'))))[1] AS reason
                FROM delivery.notification_targets t WHERE t.notification_id = NEW.campaign_id GROUP BY t.target) p;
      counts := json_build_object(
        'notificationId', NEW.campaign_id, 'status', NEW.state,
        'targets', jsonb_array_length(NEW.job->'notification'->'externalIds'),
        'sent', c.sent, 'noSubscription', c.no_subscription, 'capped', c.capped, 'failed', c.failed,
        'reason', NEW.reason, 'results', c.results);
      PERFORM delivery.emit_webhook_event(NEW.site_id, 'notification.sent', counts);
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
