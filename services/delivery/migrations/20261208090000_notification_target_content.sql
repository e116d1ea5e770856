-- A notification made from a template (docs/api-decisions.md, "Notifications", "From a
-- template"): each target row's content, rendered once when the targets are resolved with its
-- person's tags under the call's variables, and sent by the chunk worker. A row whose rendering
-- failed (a variable with no value, too large for one push) has no content and its outcome set
-- at once (`failed`, with the reason); it is never sent. NULL content: the job's content is sent
-- (inline content), as before.
ALTER TABLE delivery.notification_targets ADD COLUMN content jsonb;

-- Same function as 20261207070100_notification_outcomes.sql, leaving the outcomes already set
-- (a rendering that failed) as they are.
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
        WHERE t2.notification_id = $1 AND t2.outcome IS NULL AND t.notification_id = t2.notification_id AND t.position = t2.position$q$,
    log) USING run;
END
$$;
