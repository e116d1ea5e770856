-- The pace of a throttled campaign, kept where its pushes go out (sending/send-pace.ts): the
-- moment its next push may start. Each claim batch reserves its slots here, one after another,
-- so every delivery instance sending the campaign shares one clock, and a restart (kill -9
-- included) finds it where it was instead of starting a new second. A table of its own, so a
-- reservation never waits for the run row's lock (the pacer holds it while it publishes).
CREATE TABLE delivery.send_pace (
  campaign_id uuid PRIMARY KEY REFERENCES delivery.campaign_runs (campaign_id) ON DELETE CASCADE,
  next_at timestamptz NOT NULL
);
