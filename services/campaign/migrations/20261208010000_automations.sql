-- Automations (docs/api-decisions.md, "Automations"; issue 37 §4): a site's trigger (a person's
-- first identified subscription, or an event of a name) and its steps, each a stored template sent
-- after a delay. `trigger_event` is the event name of an event trigger (null for `subscribed`),
-- kept as a column so that an event finds the automations it starts with one index probe; the
-- steps and exit conditions are read whole, so they are kept as the API shows them (jsonb).
-- A deleted automation is deleted with its enrolments (nothing left to claim); the notifications
-- it sent stay, as a campaign's do.
CREATE TABLE automations (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  site_id       uuid NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  name          text NOT NULL,
  status        text NOT NULL CHECK (status IN ('active', 'paused')),
  trigger_type  text NOT NULL CHECK (trigger_type IN ('subscribed', 'event')),
  trigger_event text,
  steps         jsonb NOT NULL,
  exit_on       jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  CHECK ((trigger_type = 'event') = (trigger_event IS NOT NULL))
);
CREATE INDEX automations_site_created_idx ON automations (site_id, created_at DESC, id DESC);
CREATE INDEX automations_trigger_idx ON automations (site_id, trigger_type, trigger_event);

-- One row per (automation, person): where the person is in the series. `round` counts the times an
-- event automation started again for the person after an earlier run had ended (a welcome starts
-- once per person: round 0 only). `next_step` is the index of the step to send at `due_at`;
-- state 'active' while steps remain, then 'completed' or 'exited' (exit_reason says why).
-- `variables`: the starting event's properties, given to each step's template.
CREATE TABLE automation_enrolments (
  automation_id uuid NOT NULL REFERENCES automations (id) ON DELETE CASCADE,
  external_id   text NOT NULL,
  round         integer NOT NULL DEFAULT 0,
  next_step     integer NOT NULL DEFAULT 0,
  due_at        timestamptz NOT NULL,
  state         text NOT NULL CHECK (state IN ('active', 'completed', 'exited')),
  exit_reason   text,
  variables     jsonb NOT NULL DEFAULT '{}',
  enrolled_at   timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (automation_id, external_id)
);
-- The runner's claim: the active rows by due time.
CREATE INDEX automation_enrolments_due_idx ON automation_enrolments (due_at) WHERE state = 'active';

-- A step sent to a person: the key that makes each (automation, round, step, person) one
-- notification, written in the transaction of the notification row and its outbox row.
CREATE TABLE automation_sends (
  automation_id   uuid NOT NULL REFERENCES automations (id) ON DELETE CASCADE,
  external_id     text NOT NULL,
  round           integer NOT NULL,
  step            integer NOT NULL,
  notification_id uuid NOT NULL,
  sent_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (automation_id, external_id, round, step)
);
CREATE INDEX automation_sends_step_idx ON automation_sends (automation_id, step);
