-- Segment counts from the audience groups: each group (site, country, sorted topic set; see
-- 20250101000000_audience.sql) also keeps its active subscribers per profile, a profile being a
-- (lower-cased language, zone, browser family) of the site, numbered in audience_profile_ids.
-- A count of topics ∪ countries narrowed by languages, zones, UTC offsets or browsers picks the
-- matching profile numbers first (a few rows), then sums those entries of `counts` over the
-- groups the topics and countries select: the same rows the union count reads, instead of one
-- cell per (profile, country, topic set) (the cells, 20261205130000: 588,000 rows at 10,000,000
-- subscribers, segment create p99 1.8 s; issue 35). The cells are dropped by 20261205140200,
-- once the counts below are complete (20261205140100): until then they keep counting, so a
-- release still reading them answers exactly during the upgrade.
--
-- A profile's number never changes and is never reused: a group's `counts[n]` is profile n's.
-- Numbers are dense per site (1, 2, …), so `counts` is as long as the highest number among the
-- group's subscribers, 4 bytes an entry, in the row (16 profiles in the bench; a site with
-- thousands pays kilobytes a group: docs/operations.md, "Sizing by subscribers and pushes").

-- Subscriber writes wait from here to this part's commit: only while the objects below are
-- created and the trigger functions replaced (milliseconds). Taken first, before any lock on the
-- counters the triggers write, so a subscribe in flight finishes (or waits) as a whole. The
-- backfill's snapshot is taken before this part commits (the part after the directive at the
-- end), so it reads the subscribers and `counts` exactly as they were when the triggers started
-- counting profiles: nothing is counted twice or missed.
LOCK TABLE delivery.subscribers IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE IF NOT EXISTS delivery.audience_profile_ids (
  site_id uuid NOT NULL,
  language text NOT NULL,
  time_zone text NOT NULL,
  browser text NOT NULL,
  id integer NOT NULL,
  PRIMARY KEY (site_id, language, time_zone, browser),
  UNIQUE (site_id, id)
);

-- Entry n: profile n's active subscribers in the group (missing entries are 0).
ALTER TABLE delivery.audience_groups ADD COLUMN IF NOT EXISTS counts integer[] NOT NULL DEFAULT '{}';
-- Room on the page for the counter updates to stay HOT (no new entry in the topics' GIN index per update).
ALTER TABLE delivery.audience_groups SET (fillfactor = 70);

-- One statement's net change of active subscribers with these static attributes.
DO $$ BEGIN
  CREATE TYPE delivery.audience_change AS (site_id uuid, language text, time_zone text, browser text, country text, topics text[], d bigint);
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;

-- Entrywise a + b (the shorter read as padded with zeros).
CREATE OR REPLACE FUNCTION delivery.counts_add(a integer[], b integer[]) RETURNS integer[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY n), '{}') FROM unnest(a, b) WITH ORDINALITY AS u(x, y, n)
$$;

-- The dense array with ds[i] at entry ids[i] (ids distinct), zeros elsewhere.
CREATE OR REPLACE FUNCTION delivery.counts_of(ids integer[], ds bigint[]) RETURNS integer[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_agg(coalesce(c.d, 0)::integer ORDER BY n)
    FROM generate_series(1, (SELECT max(i) FROM unnest(ids) AS i)) AS n
    LEFT JOIN unnest(ids, ds) AS c(id, d) ON c.id = n
$$;

-- Applies net changes, locking in one order everywhere so two statements (or a statement and
-- the backfill merge) cannot deadlock: (1) the sites that need a new profile number, in site
-- order (an advisory lock: the next number is read and taken by one transaction at a time;
-- rarely needed, as a site's profiles are all known after its first subscribers), (2) the
-- groups, in key order, (3) the names, in key order. `with_union`: false for the backfill, which
-- completes `counts` only (the groups' users and the names were exact all along).
CREATE OR REPLACE FUNCTION delivery.audience_apply_changes(changes delivery.audience_change[], with_union boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM unnest(changes) AS c
              WHERE NOT EXISTS (SELECT 1 FROM delivery.audience_profile_ids p
                                 WHERE (p.site_id, p.language, p.time_zone, p.browser) = (c.site_id, c.language, c.time_zone, c.browser))) THEN
    PERFORM pg_advisory_xact_lock(hashtext('delivery:audience-profile-ids'), hashtext(s.site_id::text))
       FROM (SELECT DISTINCT site_id FROM unnest(changes) ORDER BY site_id) AS s;
    -- A new statement: it sees the numbers another transaction took before we got the lock.
    INSERT INTO delivery.audience_profile_ids (site_id, language, time_zone, browser, id)
    SELECT m.site_id, m.language, m.time_zone, m.browser,
           coalesce((SELECT max(id) FROM delivery.audience_profile_ids p WHERE p.site_id = m.site_id), 0)
             + row_number() OVER (PARTITION BY m.site_id ORDER BY m.language COLLATE "C", m.time_zone COLLATE "C", m.browser COLLATE "C")
      FROM (SELECT DISTINCT site_id, language, time_zone, browser FROM unnest(changes) AS c
             WHERE NOT EXISTS (SELECT 1 FROM delivery.audience_profile_ids p
                                WHERE (p.site_id, p.language, p.time_zone, p.browser) = (c.site_id, c.language, c.time_zone, c.browser))) AS m;
  END IF;

  INSERT INTO delivery.audience_groups AS g (site_id, country, topics, users, counts)
  SELECT site_id, country, topics, CASE WHEN with_union THEN sum(d) ELSE 0 END, delivery.counts_of(array_agg(id), array_agg(d))
    FROM (SELECT c.site_id, c.country, delivery.topic_set(c.topics) AS topics, p.id, sum(c.d)::bigint AS d
            FROM unnest(changes) AS c
            JOIN delivery.audience_profile_ids p USING (site_id, language, time_zone, browser)
           GROUP BY 1, 2, 3, 4
          HAVING sum(c.d) <> 0) AS x
   GROUP BY site_id, country, topics
   ORDER BY site_id, country COLLATE "C", topics
  ON CONFLICT (site_id, country, topics) DO UPDATE SET users = g.users + EXCLUDED.users, counts = delivery.counts_add(g.counts, EXCLUDED.counts);

  IF with_union THEN
    INSERT INTO delivery.audience_names AS n (site_id, name, users)
    SELECT site_id, name, sum(d)
      FROM (SELECT site_id, country AS name, d FROM unnest(changes)
            UNION ALL
            SELECT u.site_id, t, u.d FROM unnest(changes) AS u, unnest(delivery.topic_set(u.topics)) AS t) AS x
     GROUP BY site_id, name
    HAVING sum(d) <> 0
     ORDER BY site_id, name COLLATE "C"
    ON CONFLICT (site_id, name) DO UPDATE SET users = n.users + EXCLUDED.users;
  END IF;
END
$$;

-- The counting triggers (same names and functions as in 20250101000000_audience.sql, so they
-- fire in the same place among the others), now with the profile: each collapses the
-- statement's rows by their raw values first, so a bulk insert reaches the apply function as a
-- few thousand changes at most; an update counts only rows whose counted attributes (or active
-- flag) changed, as unchanged ones cancel out.
CREATE OR REPLACE FUNCTION delivery.subscribers_counted_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery.audience_apply_changes(ARRAY(
    SELECT ROW(site_id, language, time_zone, browser, country, topics, count(*))::delivery.audience_change
      FROM (SELECT site_id, coalesce(lower(language), '') AS language, coalesce(time_zone, '') AS time_zone, delivery.browser_of(endpoint) AS browser,
                   country, topics FROM new_rows WHERE active) AS x
     GROUP BY site_id, language, time_zone, browser, country, topics), true);
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION delivery.subscribers_counted_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery.audience_apply_changes(ARRAY(
    SELECT ROW(site_id, language, time_zone, browser, country, topics, sum(d))::delivery.audience_change
      FROM (SELECT site_id, coalesce(lower(language), '') AS language, coalesce(time_zone, '') AS time_zone, delivery.browser_of(endpoint) AS browser,
                   country, topics, 1 AS d FROM new_rows WHERE active
            UNION ALL
            SELECT site_id, coalesce(lower(language), ''), coalesce(time_zone, ''), delivery.browser_of(endpoint), country, topics, -1 FROM old_rows WHERE active) AS x
     GROUP BY site_id, language, time_zone, browser, country, topics
    HAVING sum(d) <> 0), true);
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION delivery.subscribers_counted_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery.audience_apply_changes(ARRAY(
    SELECT ROW(site_id, language, time_zone, browser, country, topics, -count(*))::delivery.audience_change
      FROM (SELECT site_id, coalesce(lower(language), '') AS language, coalesce(time_zone, '') AS time_zone, delivery.browser_of(endpoint) AS browser,
                   country, topics FROM old_rows WHERE active) AS x
     GROUP BY site_id, language, time_zone, browser, country, topics), true);
  RETURN NULL;
END
$$;

-- contract: only the triggers called audience_apply, and the functions above replaced theirs; no
-- release's code calls it or uses its type, so the previous release runs on without them.
DROP FUNCTION IF EXISTS delivery.audience_apply(delivery.audience_delta[]);
DROP TYPE IF EXISTS delivery.audience_delta;

-- What the counts lacked when the triggers above started: the subscribers then, less what
-- `counts` held then (nothing, the first time; after a run cut short, what it had merged).
-- Merged into `counts` in short transactions by the next file (20261205140100), which empties it.
CREATE TABLE IF NOT EXISTS delivery.audience_counts_backfill (
  site_id uuid NOT NULL,
  language text NOT NULL,
  time_zone text NOT NULL,
  browser text NOT NULL,
  country text NOT NULL,
  topics text[] NOT NULL,
  users bigint NOT NULL
);

-- Merges the backfill into `counts`, `batch` rows per transaction (a subscribe whose group is in
-- the batch waits for that transaction only: milliseconds); each batch leaves the backfill table
-- in the transaction that merges it, so a merge cut short continues where it stopped. CALLed
-- outside a transaction (its COMMITs), by the next migration file.
CREATE OR REPLACE PROCEDURE delivery.audience_counts_merge_backfill(batch integer)
LANGUAGE plpgsql AS $$
DECLARE
  changes delivery.audience_change[];
BEGIN
  LOOP
    WITH taken AS (
      DELETE FROM delivery.audience_counts_backfill
       WHERE ctid = ANY(ARRAY(SELECT ctid FROM delivery.audience_counts_backfill LIMIT batch))
      RETURNING site_id, language, time_zone, browser, country, topics, users)
    SELECT array_agg(ROW(site_id, language, time_zone, browser, country, topics, users)::delivery.audience_change) INTO changes FROM taken;
    EXIT WHEN changes IS NULL;
    PERFORM delivery.audience_apply_changes(changes, false);
    COMMIT;
  END LOOP;
END
$$;

TRUNCATE delivery.audience_counts_backfill;

-- The backfill, from the subscribers and the counts as they were when the triggers started. It
-- writes only the backfill table, which nothing else writes.
-- migrate: next transaction, from the locked state
INSERT INTO delivery.audience_counts_backfill (site_id, language, time_zone, browser, country, topics, users)
SELECT site_id, language, time_zone, browser, country, topics, sum(users)
  FROM (SELECT site_id, language, time_zone, browser, country, delivery.topic_set(topics) AS topics, sum(users) AS users
          FROM (SELECT site_id, coalesce(lower(language), '') AS language, coalesce(time_zone, '') AS time_zone, delivery.browser_of(endpoint) AS browser,
                       country, topics, count(*) AS users
                  FROM delivery.subscribers WHERE active
                 GROUP BY 1, 2, 3, 4, 5, 6) AS raw
         GROUP BY 1, 2, 3, 4, 5, 6
        UNION ALL
        SELECT g.site_id, p.language, p.time_zone, p.browser, g.country, g.topics, -u.n
          FROM delivery.audience_groups g
         CROSS JOIN LATERAL unnest(g.counts) WITH ORDINALITY AS u(n, id)
          JOIN delivery.audience_profile_ids p ON p.site_id = g.site_id AND p.id = u.id
         WHERE u.n <> 0) AS x
 GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(users) <> 0;

-- migrate: next transaction
ANALYZE delivery.audience_counts_backfill;
