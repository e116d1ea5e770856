-- A notification made from a template (POST /v2/notifications with `template`; docs/api-decisions.md,
-- "Notifications", "From a template"): the template as it was at create — `{id, version}`, its
-- texts (`content`, the content fields with their tags) and the call's `variables` — frozen here,
-- so a later edit or deletion of the template changes no notification in flight. The delivery
-- service renders it per person with their tags under the call's variables. NULL: inline content.
ALTER TABLE notifications ADD COLUMN template jsonb;
