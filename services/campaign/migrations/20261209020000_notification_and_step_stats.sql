-- A notification's impressions and clicks (docs/api-decisions.md, "Notifications"), kept from the
-- delivery service's stats events as a campaign's are (greatest value wins), and each automation
-- step's (docs/api-decisions.md, "Automations", "Results"): the sum of its notifications', grown
-- by each notification's increase in the transaction that stores it, so a replayed or reordered
-- event adds nothing. The index finds a notification's (automation, step) from its id, from the
-- index alone: the notification of a step may name many people, each with a send row of that step.
-- Built CONCURRENTLY (a plain CREATE INDEX would hold the runner's sends for the whole build), so
-- the file runs statement by statement, each safe to repeat; a concurrent build that failed
-- leaves an invalid index of the same name: dropped first.
-- migrate: without transaction
ALTER TABLE campaign.notifications
  ADD COLUMN IF NOT EXISTS impressions bigint NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS clicks bigint NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS campaign.automation_step_stats (
  automation_id uuid NOT NULL REFERENCES campaign.automations (id) ON DELETE CASCADE,
  step          integer NOT NULL,
  impressions   bigint NOT NULL DEFAULT 0,
  clicks        bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (automation_id, step)
);
DROP INDEX CONCURRENTLY IF EXISTS campaign.automation_sends_notification_idx;
CREATE INDEX CONCURRENTLY automation_sends_notification_idx ON campaign.automation_sends (notification_id, automation_id, step);
