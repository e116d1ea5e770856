-- When a notification is sent (POST /v2/notifications and automation steps with `sendTime` or
-- `respectQuietHours`; docs/api-decisions.md, "Notifications", "Send time"): `send_time` is
-- `{"withinHours": n}` for one sent at each target's best hour of an n-hour window (NULL: at
-- once), `respect_quiet_hours` whether the site's quiet hours hold it (false: never, as every
-- notification before). Both travel on its dispatch job.
ALTER TABLE notifications ADD COLUMN send_time jsonb;
ALTER TABLE notifications ADD COLUMN respect_quiet_hours boolean NOT NULL DEFAULT false;
