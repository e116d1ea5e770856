-- A campaign created while the delivery service could not count its audience (down, or past the
-- count's deadline) is stored with total_users NULL, "not counted yet", and counted again in the
-- background (domain/audience-recount.ts); the API answers 0 until then (docs/api-decisions.md,
-- "totalUsers when the audience cannot be counted"). Dropping NOT NULL only changes the catalogue.
-- The partial index holds only the uncounted campaigns (normally none): the recount finds them
-- without reading the table. Built CONCURRENTLY: a plain CREATE INDEX would block creates for
-- the whole build. A concurrent build that failed leaves an invalid index of the same name:
-- dropped first, so the file can run again.
-- migrate: without transaction
ALTER TABLE campaign.campaigns ALTER COLUMN total_users DROP NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS campaign.campaigns_uncounted_idx;
CREATE INDEX CONCURRENTLY campaigns_uncounted_idx ON campaign.campaigns (created_at) WHERE total_users IS NULL;
