-- Local time (an addition of 2026-11-27: docs/api-decisions.md, "Local time"): a campaign sent at
-- a wall-clock time in each subscriber's zone. local_time is its plan as the API shows it
-- (`localTime`: date, time, ifPassed, firstSendAt, lastSendAt, sends), json like segment so the
-- keys keep their order and the text is answered as stored; schedule_date is its first send (the
-- scheduler dispatches it then), last_send_at its last: the list filter reads such a campaign
-- `scheduled` until then. Both null for every other campaign.
ALTER TABLE campaign.campaigns
  ADD COLUMN local_time json,
  ADD COLUMN last_send_at timestamptz,
  ADD CONSTRAINT campaigns_local_time_check CHECK ((local_time IS NULL) = (last_send_at IS NULL));
