-- Data tags of people (docs/people.md, "Tags"): typed values the site sets through the API
-- (/v2/users/{externalId}). One row per (person, key), the value in the column of its kind, so a
-- comparison reads a typed column.
CREATE TABLE delivery.person_tags (
  person_id bigint NOT NULL REFERENCES delivery.people (id) ON DELETE CASCADE,
  key text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('string', 'number', 'date', 'boolean')),
  string_value text,
  number_value double precision,
  date_value timestamptz,
  boolean_value boolean,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (person_id, key),
  CONSTRAINT person_tags_one_value CHECK (
    (kind = 'string') = (string_value IS NOT NULL) AND (kind = 'number') = (number_value IS NOT NULL)
    AND (kind = 'date') = (date_value IS NOT NULL) AND (kind = 'boolean') = (boolean_value IS NOT NULL))
);
