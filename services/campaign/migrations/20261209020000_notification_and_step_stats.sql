-- A notification's impressions and clicks (docs/api-decisions.md, "Notifications"), kept from the
-- delivery service's stats events as a campaign's are (greatest value wins), and each automation
-- step's (docs/api-decisions.md, "Automations", "Results"): the sum of its notifications', grown
-- by each notification's increase in the transaction that stores it, so a replayed or reordered
-- event adds nothing. A notification's (automation, step) is found from its id by
-- automation_sends_notification_idx (20261209010600_automation_signal_indexes.sql). The columns
-- have constant defaults: no rewrite of the table.
ALTER TABLE campaign.notifications
  ADD COLUMN impressions bigint NOT NULL DEFAULT 0,
  ADD COLUMN clicks bigint NOT NULL DEFAULT 0;
CREATE TABLE campaign.automation_step_stats (
  automation_id uuid NOT NULL REFERENCES campaign.automations (id) ON DELETE CASCADE,
  step          integer NOT NULL,
  impressions   bigint NOT NULL DEFAULT 0,
  clicks        bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (automation_id, step)
);
