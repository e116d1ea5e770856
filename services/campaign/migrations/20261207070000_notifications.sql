-- Notifications to chosen subscriptions (POST /v2/notifications; docs/api-decisions.md,
-- "Notifications"): the content (as a dispatch message carries it: campaign-content.ts) and the
-- public subscriber ids named, in the request's order. The row's id is the notification's: the
-- delivery service runs it as a run of that id, and the outbox row that hands it over names it
-- (kind 'notification.dispatch'), in the create's transaction.
CREATE TABLE notifications (
  id               uuid PRIMARY KEY,
  site_id          uuid NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  content          jsonb NOT NULL,
  ttl              integer NOT NULL,
  urgency          text NOT NULL,
  transactional    boolean NOT NULL,
  subscription_ids uuid[] NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_site_created_idx ON notifications (site_id, created_at DESC, id DESC);
