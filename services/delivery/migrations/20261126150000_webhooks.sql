-- Outgoing webhooks (docs/webhooks.md): a site's endpoints, and one delivery row per (event,
-- endpoint that wants it). Events are written in the same transaction as the change they
-- report — by the triggers below, or by the statement making the change (a new subscriber,
-- audience/subscriber-store.ts) — so none is lost to a crash, and none is written when no
-- endpoint wants it.

CREATE TABLE delivery.webhook_endpoints (
  id uuid PRIMARY KEY,
  site_id uuid NOT NULL REFERENCES delivery.sites (site_id) ON DELETE CASCADE,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  -- The signing secret, sealed like a VAPID private key (webhooks/secrets.ts).
  secret_enc bytea NOT NULL,
  -- During a rotation: the secret before, still signing until previous_secret_expires_at.
  previous_secret_enc bytea,
  previous_secret_expires_at timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  disabled_at timestamptz,
  disabled_reason text,
  -- The first failure since the last success: 24 hours of nothing but failures disables it.
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhook_endpoints_by_site ON delivery.webhook_endpoints (site_id, created_at);

CREATE TABLE delivery.webhook_deliveries (
  id bigserial PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES delivery.webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  -- The exact bytes sent (and signed) at every attempt.
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  -- When a pending row is next due. A claimed row is pushed a lease ahead, so a row whose
  -- sender died is due again once the lease has run out.
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Retries run for a window from here: the event's creation, or its last manual redelivery.
  retry_from timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  last_status integer,
  last_latency_ms integer,
  last_error text,
  delivered_at timestamptz,
  UNIQUE (endpoint_id, event_id)
);

CREATE INDEX webhook_deliveries_due ON delivery.webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_recent ON delivery.webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_finished ON delivery.webhook_deliveries (created_at) WHERE state <> 'pending';

-- Impressions and clicks wait here until the sender batches them into one event per site and
-- kind every few seconds (never one request per click). Only sites with an endpoint that wants
-- them get rows.
CREATE TABLE delivery.webhook_tracking_buffer (
  id bigserial PRIMARY KEY,
  site_id uuid NOT NULL,
  campaign_id uuid NOT NULL,
  subscriber_id bigint NOT NULL,
  kind text NOT NULL,
  at timestamptz NOT NULL
);

CREATE FUNCTION delivery.webhook_time(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- One event: a row for every enabled endpoint of the site that wants its type, all with the same
-- id and body. Returns how many rows were written. `data` is json (not jsonb) to keep key order.
CREATE FUNCTION delivery.emit_webhook_event(p_site uuid, p_type text, p_data json) RETURNS integer LANGUAGE sql AS $$
  WITH ev AS MATERIALIZED (SELECT gen_random_uuid() AS id, now() AS at),
  ins AS (
    INSERT INTO delivery.webhook_deliveries (endpoint_id, event_id, event_type, body, created_at, retry_from)
    SELECT e.id, ev.id, p_type,
           json_build_object('id', ev.id, 'type', p_type, 'createdAt', delivery.webhook_time(ev.at), 'data', p_data)::text,
           ev.at, ev.at
      FROM delivery.webhook_endpoints e, ev
     WHERE e.site_id = p_site AND e.enabled AND p_type = ANY (e.events)
    RETURNING 1)
  SELECT count(*)::int FROM ins
$$;

-- campaign.dispatched when a run appears; campaign.completed / campaign.failed when it ends.
CREATE FUNCTION delivery.webhook_campaign_run() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts json;
BEGIN
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

CREATE TRIGGER campaign_runs_webhook_dispatched AFTER INSERT ON delivery.campaign_runs
  FOR EACH ROW EXECUTE FUNCTION delivery.webhook_campaign_run();
-- The WHEN clause is evaluated without calling the function, so the per-chunk counter updates
-- (which never change the state) cost nothing here.
CREATE TRIGGER campaign_runs_webhook_finished AFTER UPDATE ON delivery.campaign_runs
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION delivery.webhook_campaign_run();

-- subscriber.expired for every subscription that stops being active, whichever statement did it
-- (the push service said it is gone, the browser unsubscribed, a subscription change replaced it).
CREATE FUNCTION delivery.webhook_subscribers_expired() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM delivery.webhook_endpoints WHERE enabled AND 'subscriber.expired' = ANY (events)) THEN
    RETURN NULL;
  END IF;
  PERFORM delivery.emit_webhook_event(n.site_id, 'subscriber.expired', json_build_object('subscriberId', n.public_id))
     FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE o.active AND NOT n.active;
  RETURN NULL;
END
$$;

CREATE TRIGGER subscribers_webhook_expired AFTER UPDATE ON delivery.subscribers
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.webhook_subscribers_expired();

-- Impressions and clicks of sites that want them, into the buffer.
CREATE FUNCTION delivery.webhook_tracking_buffered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM delivery.webhook_endpoints
                  WHERE enabled AND events && ARRAY['notification.impressions', 'notification.clicks']) THEN
    RETURN NULL;
  END IF;
  INSERT INTO delivery.webhook_tracking_buffer (site_id, campaign_id, subscriber_id, kind, at)
  SELECT r.site_id, n.campaign_id, n.subscriber_id, n.kind, n.at
    FROM new_rows n JOIN delivery.campaign_runs r ON r.campaign_id = n.campaign_id
   WHERE EXISTS (SELECT 1 FROM delivery.webhook_endpoints e
                  WHERE e.site_id = r.site_id AND e.enabled AND ('notification.' || n.kind || 's') = ANY (e.events));
  RETURN NULL;
END
$$;

CREATE TRIGGER tracking_webhook_buffered AFTER INSERT ON delivery.tracking
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.webhook_tracking_buffered();
