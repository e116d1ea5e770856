-- People's signals in automations (docs/api-decisions.md, "Automations", "People's signals"): a
-- `tag` trigger — its tag's key in trigger_event (found as an event's name is, by
-- automations_trigger_idx), the value it waits for in trigger_value (JSON: a string, number or
-- boolean; null: any value). The two CHECKs are replaced by wider ones: the previous release
-- writes only `subscribed` and `event` rows, which pass them, and reads a `tag` row as a
-- `subscribed` one it never enrols (its welcome's statement names trigger_type = 'subscribed').
-- The table holds a few rows per site: validating the new CHECKs reads it at once.
ALTER TABLE automations ADD COLUMN trigger_value jsonb;
ALTER TABLE automations DROP CONSTRAINT automations_trigger_type_check;
ALTER TABLE automations ADD CONSTRAINT automations_trigger_kind CHECK (trigger_type IN ('subscribed', 'event', 'tag'));
ALTER TABLE automations DROP CONSTRAINT automations_check;
ALTER TABLE automations ADD CONSTRAINT automations_trigger_fields
  CHECK ((trigger_type IN ('event', 'tag')) = (trigger_event IS NOT NULL) AND (trigger_type = 'tag' OR trigger_value IS NULL));
