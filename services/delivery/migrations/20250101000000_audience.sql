-- Delivery service: sites (VAPID keys), subscribers, and the precomputed audience counters.
-- Every object is schema-qualified because trigger functions run under the caller's search_path.

CREATE TABLE delivery.sites (
  site_id uuid PRIMARY KEY,
  public_id text NOT NULL UNIQUE,
  -- base64url of the uncompressed P-256 point (65 bytes)
  vapid_public_key text NOT NULL,
  -- AES-256-GCM under VAPID_ENCRYPTION_KEY, laid out as iv(12) | tag(16) | ciphertext
  vapid_private_key_enc bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE delivery.subscribers (
  id bigserial PRIMARY KEY,
  site_id uuid NOT NULL REFERENCES delivery.sites (site_id) ON DELETE CASCADE,
  endpoint text NOT NULL,
  p256dh text NOT NULL,
  auth text NOT NULL,
  country text NOT NULL,
  topics text[] NOT NULL DEFAULT '{}',
  language text,
  time_zone text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deactivated_at timestamptz,
  UNIQUE (site_id, endpoint)
);

-- The sender streams a site's audience in id order (keyset pagination) over active rows only.
CREATE INDEX subscribers_active_by_site_id ON delivery.subscribers (site_id, id) WHERE active;

-- Active subscribers per topic name and per country name (names starting with 'country__').
CREATE TABLE delivery.audience_names (
  site_id uuid NOT NULL,
  name text NOT NULL,
  users bigint NOT NULL,
  PRIMARY KEY (site_id, name)
);

-- Active subscribers per exact (country, sorted topic set). A union count over topics and
-- countries sums the groups that touch any of them, which counts each subscriber once.
CREATE TABLE delivery.audience_groups (
  site_id uuid NOT NULL,
  country text NOT NULL,
  topics text[] NOT NULL,
  users bigint NOT NULL,
  PRIMARY KEY (site_id, country, topics)
);
CREATE INDEX audience_groups_topics ON delivery.audience_groups USING gin (topics);

CREATE TYPE delivery.audience_delta AS (site_id uuid, country text, topics text[], d bigint);

-- Set semantics for the group key: the same topics in another order or repeated are one group.
CREATE FUNCTION delivery.topic_set(topics text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT t FROM unnest(topics) AS t GROUP BY t ORDER BY t COLLATE "C")
$$;

-- Applies one statement's net changes. Rows are upserted in key order so two concurrent
-- statements lock counter rows in the same order and cannot deadlock each other.
CREATE FUNCTION delivery.audience_apply(deltas delivery.audience_delta[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO delivery.audience_groups AS g (site_id, country, topics, users)
  SELECT site_id, country, delivery.topic_set(topics) AS ts, sum(d)
    FROM unnest(deltas)
   GROUP BY site_id, country, ts
  HAVING sum(d) <> 0
   ORDER BY site_id, country COLLATE "C", ts
  ON CONFLICT (site_id, country, topics) DO UPDATE SET users = g.users + EXCLUDED.users;

  INSERT INTO delivery.audience_names AS n (site_id, name, users)
  SELECT site_id, name, sum(d)
    FROM (SELECT site_id, country AS name, d FROM unnest(deltas)
          UNION ALL
          SELECT u.site_id, t, u.d FROM unnest(deltas) AS u, unnest(delivery.topic_set(u.topics)) AS t) AS x
   GROUP BY site_id, name
  HAVING sum(d) <> 0
   ORDER BY site_id, name COLLATE "C"
  ON CONFLICT (site_id, name) DO UPDATE SET users = n.users + EXCLUDED.users;
$$;

-- Postgres allows transition tables only on single-event triggers, hence three functions.
-- Each first collapses the statement's rows by raw (site, country, topics), so a bulk insert
-- of thousands of rows reaches audience_apply as a handful of deltas.
CREATE FUNCTION delivery.subscribers_counted_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery.audience_apply(ARRAY(
    SELECT ROW(site_id, country, topics, count(*))::delivery.audience_delta
      FROM new_rows WHERE active
     GROUP BY site_id, country, topics));
  RETURN NULL;
END
$$;

CREATE FUNCTION delivery.subscribers_counted_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery.audience_apply(ARRAY(
    SELECT ROW(site_id, country, topics, sum(d))::delivery.audience_delta
      FROM (SELECT site_id, country, topics, 1 AS d FROM new_rows WHERE active
            UNION ALL
            SELECT site_id, country, topics, -1 AS d FROM old_rows WHERE active) AS x
     GROUP BY site_id, country, topics
    HAVING sum(d) <> 0));
  RETURN NULL;
END
$$;

CREATE FUNCTION delivery.subscribers_counted_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery.audience_apply(ARRAY(
    SELECT ROW(site_id, country, topics, -count(*))::delivery.audience_delta
      FROM old_rows WHERE active
     GROUP BY site_id, country, topics));
  RETURN NULL;
END
$$;

CREATE TRIGGER subscribers_counted_insert AFTER INSERT ON delivery.subscribers
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.subscribers_counted_insert();

CREATE TRIGGER subscribers_counted_update AFTER UPDATE ON delivery.subscribers
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.subscribers_counted_update();

CREATE TRIGGER subscribers_counted_delete AFTER DELETE ON delivery.subscribers
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.subscribers_counted_delete();
