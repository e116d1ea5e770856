-- A site's quiet hours (docs/api-decisions.md "Quiet hours"): a daily window, `HH:MM` to `HH:MM`
-- in each subscriber's zone (the site's time_zone for those without one), when pushes of a
-- campaign are held until it ends (sending/stages.ts). Both null: none. Set by owners in the
-- console and by operators (`sites set-quiet-hours`), by the rules of sites/sending-settings.ts.
ALTER TABLE delivery.sites
  ADD COLUMN quiet_from text,
  ADD COLUMN quiet_to text,
  ADD CONSTRAINT sites_quiet_hours CHECK (
    (quiet_from IS NULL AND quiet_to IS NULL)
    OR (quiet_from ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND quiet_to ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND quiet_from <> quiet_to)
  );
