-- Notification options (an addition of 2026-12-05: docs/api-decisions.md, "Notification
-- options"). notification_options: the options a campaign sets (buttons with their own links,
-- badge, requireInteraction, renotify, silent, vibrate, timestamp, dir, lang), normalised with
-- every field present, json so the keys keep their order; null for a campaign that sets none (all
-- campaigns before). urgency: the RFC 8030 Urgency of its pushes, `normal` as every campaign's
-- was. Catalogue changes only: a constant default rewrites no row (and no CHECK, which would
-- read every row under the lock: the campaign service validates the value).
ALTER TABLE campaign.campaigns ADD COLUMN notification_options json;
ALTER TABLE campaign.campaigns ADD COLUMN urgency text NOT NULL DEFAULT 'normal';
