-- A site's notification templates (docs/api-decisions.md, "Templates"): the content fields of a
-- create body, whose texts may hold {{ variables }}, kept as given (`content`, the create body's
-- field names) and rendered when a campaign is made from them. `version` counts the edits from 1,
-- so a campaign names the template as it was when rendered. Names are unique within a site.
CREATE TABLE templates (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  site_id    uuid NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  name       text NOT NULL,
  version    integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  content    jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, name)
);
-- The list's order (newest first) and its cursor.
CREATE INDEX templates_site_created_idx ON templates (site_id, created_at DESC, id DESC);
