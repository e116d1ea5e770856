-- Members and roles from the console (docs/console.md, "Members and roles"): a read-only `viewer`
-- role beside owner and editor, and invites made by an owner in the console. An invite gets an id
-- (its token is never stored, so the console lists and revokes pending ones by id) and names who
-- made it (the invite page shows it; null for the operator CLI's, or once that user is deleted).
ALTER TABLE campaign.site_members DROP CONSTRAINT site_members_role_check;
ALTER TABLE campaign.site_members ADD CONSTRAINT site_members_role_check CHECK (role IN ('owner', 'editor', 'viewer'));
ALTER TABLE campaign.one_time_links DROP CONSTRAINT one_time_links_role_check;
ALTER TABLE campaign.one_time_links ADD CONSTRAINT one_time_links_role_check CHECK (role IN ('owner', 'editor', 'viewer'));

-- A volatile default fills each existing row in the rewrite; the table holds links of the last
-- week (plus a day) only.
ALTER TABLE campaign.one_time_links
  ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  ADD COLUMN invited_by uuid REFERENCES campaign.users (id) ON DELETE SET NULL;
-- A site's pending invites, listed by the console.
CREATE INDEX one_time_links_site_idx ON campaign.one_time_links (site_id) WHERE site_id IS NOT NULL;
