-- People's signals (docs/api-decisions.md, "Automations", "People's signals"): a click names the
-- notification, whose send key says which run sent it; a privacy delete finds the site's
-- notifications that name the person. Built CONCURRENTLY: a plain CREATE INDEX would hold the
-- runner's sends and the notifications' creates for the whole build. A concurrent build that
-- failed leaves an invalid index of the same name: dropped first, so the file can run again.
-- migrate: without transaction
DROP INDEX CONCURRENTLY IF EXISTS campaign.automation_sends_notification_idx;
CREATE INDEX CONCURRENTLY automation_sends_notification_idx ON campaign.automation_sends (notification_id);
DROP INDEX CONCURRENTLY IF EXISTS campaign.notifications_external_ids_idx;
CREATE INDEX CONCURRENTLY notifications_external_ids_idx ON campaign.notifications USING gin (external_ids) WHERE cardinality(external_ids) > 0;
