-- A campaign created with ignoreQuietHours (docs/api-decisions.md "Quiet hours") is sent inside
-- its site's quiet hours too: the dispatch carries it, and the delivery service holds none of its
-- zones. Every campaign before this was held by none (quiet hours did not exist).
ALTER TABLE campaign.campaigns ADD COLUMN ignore_quiet_hours boolean NOT NULL DEFAULT false;
