-- A throttled automation's claim (automation-store.ts, claimPaced): its own due steps in due
-- order, and whether it has any (the runner's wake), without walking the other automations' due
-- steps or all of its enrolments. Built CONCURRENTLY (the enrolments are written by every event
-- and step); a failed concurrent build leaves an invalid index of the same name: dropped first,
-- so the file can run again.
-- migrate: without transaction
DROP INDEX CONCURRENTLY IF EXISTS campaign.automation_enrolments_automation_due_idx;
CREATE INDEX CONCURRENTLY automation_enrolments_automation_due_idx ON campaign.automation_enrolments (automation_id, due_at) WHERE state = 'active';
