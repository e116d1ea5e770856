-- A notification to people (POST /v2/notifications with `externalIds`; docs/api-decisions.md,
-- "Notifications"): the site's own user ids named, in the request's order. A notification names
-- either subscriptions or people, never both: the other array is empty.
ALTER TABLE notifications ADD COLUMN external_ids text[] NOT NULL DEFAULT '{}';
ALTER TABLE notifications ADD CONSTRAINT notifications_one_kind_of_target
  CHECK ((cardinality(subscription_ids) = 0) <> (cardinality(external_ids) = 0));
