-- Audience cells: active subscribers per site and per every static attribute a segment can test
-- (packages/contracts/src/segment.ts): language (lower-cased, '' for none), stored time zone ('' for
-- none), browser family (delivery.browser_of), country and sorted topic set. A count narrowed by
-- languages, zones, UTC offsets or browsers is a sum over the cells of the matching profiles
-- (count-store.ts), so creating a campaign with such a segment no longer reads the site's
-- subscribers (2.6 s at 1,000,000 subscribers, past the 5 s deadline at 10,000,000; issue 35).
-- The number of cells is bounded by the distinct combinations, not by the subscribers.
--
-- audience_profiles: active subscribers per (language, zone, browser) of a site, a few hundred
-- rows even for a large site: a segment's static conditions pick profiles here first, then only
-- those profiles' cells are read (the cells' key starts with the profile).
CREATE TABLE IF NOT EXISTS delivery.audience_cells (
  site_id uuid NOT NULL,
  language text NOT NULL,
  time_zone text NOT NULL,
  browser text NOT NULL,
  country text NOT NULL,
  topics text[] NOT NULL,
  users bigint NOT NULL,
  PRIMARY KEY (site_id, language, time_zone, browser, country, topics)
) WITH (fillfactor = 70); -- room on the page, so the counter updates stay HOT (no index entry per update)

CREATE TABLE IF NOT EXISTS delivery.audience_profiles (
  site_id uuid NOT NULL,
  language text NOT NULL,
  time_zone text NOT NULL,
  browser text NOT NULL,
  users bigint NOT NULL,
  PRIMARY KEY (site_id, language, time_zone, browser)
) WITH (fillfactor = 70);

-- The backfill's rows, counted from the subscribers as the triggers below started, merged into
-- the cells in short transactions by the next migration file (20261205130100), which empties it.
CREATE TABLE IF NOT EXISTS delivery.audience_cells_backfill (
  site_id uuid NOT NULL,
  language text NOT NULL,
  time_zone text NOT NULL,
  browser text NOT NULL,
  country text NOT NULL,
  topics text[] NOT NULL,
  users bigint NOT NULL
);

DO $$ BEGIN
  CREATE TYPE delivery.audience_cell_delta AS (site_id uuid, language text, time_zone text, browser text, country text, topics text[], d bigint);
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;

-- Applies net changes: cells, then profiles, each upserted in key order, so two statements (or a
-- statement and the backfill) lock counter rows in the same order and cannot deadlock.
CREATE OR REPLACE FUNCTION delivery.audience_cells_apply(deltas delivery.audience_cell_delta[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO delivery.audience_cells AS c (site_id, language, time_zone, browser, country, topics, users)
  SELECT site_id, language, time_zone, browser, country, delivery.topic_set(topics) AS ts, sum(d)
    FROM unnest(deltas)
   GROUP BY site_id, language, time_zone, browser, country, ts
  HAVING sum(d) <> 0
   ORDER BY site_id, language COLLATE "C", time_zone COLLATE "C", browser COLLATE "C", country COLLATE "C", ts
  ON CONFLICT (site_id, language, time_zone, browser, country, topics) DO UPDATE SET users = c.users + EXCLUDED.users;

  INSERT INTO delivery.audience_profiles AS p (site_id, language, time_zone, browser, users)
  SELECT site_id, language, time_zone, browser, sum(d)
    FROM unnest(deltas)
   GROUP BY site_id, language, time_zone, browser
  HAVING sum(d) <> 0
   ORDER BY site_id, language COLLATE "C", time_zone COLLATE "C", browser COLLATE "C"
  ON CONFLICT (site_id, language, time_zone, browser) DO UPDATE SET users = p.users + EXCLUDED.users;
$$;

-- Statement triggers like the other audience counters (20250101000000_audience.sql): each first
-- collapses the statement's rows by their raw values, so a bulk insert of thousands of rows
-- reaches audience_cells_apply as a few thousand deltas at most; an update counts only rows whose
-- counted attributes (or active flag) changed, because unchanged ones cancel out. Named
-- "subscribers_cells_*": they fire before "subscribers_counted_*" and "subscribers_daily_*" in
-- every statement, the same order everywhere.
CREATE OR REPLACE FUNCTION delivery.subscribers_cells_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery.audience_cells_apply(ARRAY(
    SELECT ROW(site_id, language, time_zone, browser, country, topics, count(*))::delivery.audience_cell_delta
      FROM (SELECT site_id, coalesce(lower(language), '') AS language, coalesce(time_zone, '') AS time_zone, delivery.browser_of(endpoint) AS browser,
                   country, topics FROM new_rows WHERE active) AS x
     GROUP BY site_id, language, time_zone, browser, country, topics));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION delivery.subscribers_cells_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery.audience_cells_apply(ARRAY(
    SELECT ROW(site_id, language, time_zone, browser, country, topics, sum(d))::delivery.audience_cell_delta
      FROM (SELECT site_id, coalesce(lower(language), '') AS language, coalesce(time_zone, '') AS time_zone, delivery.browser_of(endpoint) AS browser,
                   country, topics, 1 AS d FROM new_rows WHERE active
            UNION ALL
            SELECT site_id, coalesce(lower(language), ''), coalesce(time_zone, ''), delivery.browser_of(endpoint), country, topics, -1 FROM old_rows WHERE active) AS x
     GROUP BY site_id, language, time_zone, browser, country, topics
    HAVING sum(d) <> 0));
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION delivery.subscribers_cells_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery.audience_cells_apply(ARRAY(
    SELECT ROW(site_id, language, time_zone, browser, country, topics, -count(*))::delivery.audience_cell_delta
      FROM (SELECT site_id, coalesce(lower(language), '') AS language, coalesce(time_zone, '') AS time_zone, delivery.browser_of(endpoint) AS browser,
                   country, topics FROM old_rows WHERE active) AS x
     GROUP BY site_id, language, time_zone, browser, country, topics));
  RETURN NULL;
END
$$;

-- Merges the backfill into the cells `batch` rows per transaction (a subscribe whose cell is in
-- the batch waits for that transaction only: milliseconds); each batch leaves the backfill table
-- in the same transaction, so a merge cut short continues where it stopped. CALLed outside a
-- transaction (its COMMITs), by the next migration file.
CREATE OR REPLACE PROCEDURE delivery.audience_cells_merge_backfill(batch integer)
LANGUAGE plpgsql AS $$
DECLARE
  deltas delivery.audience_cell_delta[];
BEGIN
  LOOP
    WITH taken AS (
      DELETE FROM delivery.audience_cells_backfill
       WHERE ctid = ANY(ARRAY(SELECT ctid FROM delivery.audience_cells_backfill LIMIT batch))
      RETURNING site_id, language, time_zone, browser, country, topics, users)
    SELECT array_agg(ROW(site_id, language, time_zone, browser, country, topics, users)::delivery.audience_cell_delta) INTO deltas FROM taken;
    EXIT WHEN deltas IS NULL;
    PERFORM delivery.audience_cells_apply(deltas);
    COMMIT;
  END LOOP;
END
$$;

-- Subscriber writes wait from here to this part's commit: only while the triggers are created
-- (milliseconds). The backfill's snapshot is taken before that commit (the part after the
-- directive below), so it reads exactly the rows as they were without the triggers, and the
-- triggers count every change after: none counted twice or missed (as 20261127130100_audience_daily.sql).
-- Safe to run again: the counters start from zero and the backfill counts everything again.
LOCK TABLE delivery.subscribers IN SHARE ROW EXCLUSIVE MODE;
TRUNCATE delivery.audience_cells, delivery.audience_profiles, delivery.audience_cells_backfill;

CREATE OR REPLACE TRIGGER subscribers_cells_insert AFTER INSERT ON delivery.subscribers
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.subscribers_cells_insert();

CREATE OR REPLACE TRIGGER subscribers_cells_update AFTER UPDATE ON delivery.subscribers
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.subscribers_cells_update();

CREATE OR REPLACE TRIGGER subscribers_cells_delete AFTER DELETE ON delivery.subscribers
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.subscribers_cells_delete();

-- The backfill, from the subscribers as they were when the triggers started. It writes only the
-- backfill table, which nothing else writes (a REPEATABLE READ transaction may).
-- migrate: next transaction, from the locked state
INSERT INTO delivery.audience_cells_backfill (site_id, language, time_zone, browser, country, topics, users)
SELECT site_id, language, time_zone, browser, country, delivery.topic_set(topics), sum(users)
  FROM (SELECT site_id, coalesce(lower(language), '') AS language, coalesce(time_zone, '') AS time_zone, delivery.browser_of(endpoint) AS browser,
               country, topics, count(*) AS users
          FROM delivery.subscribers WHERE active
         GROUP BY 1, 2, 3, 4, 5, 6) AS raw
 GROUP BY 1, 2, 3, 4, 5, 6;

-- migrate: next transaction
ANALYZE delivery.audience_cells_backfill;
