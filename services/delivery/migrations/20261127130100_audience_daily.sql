-- Subscribers per day per site and active subscribers by browser family: the console's audience
-- charts (docs/console.md, "Time series"; issue 14), kept by triggers as subscribers change so
-- that no console answer reads delivery.subscribers. Days are UTC.

-- A moment's UTC day: one expression, inlined into the statements that use it.
CREATE OR REPLACE FUNCTION delivery.utc_day(t timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (t AT TIME ZONE 'UTC')::date;

-- audience_daily: per site and UTC day, subscriptions created that day (`created`, the row's
-- created_at: for an imported subscription, the date it was given at import), subscriptions that
-- stopped being active (`expired`: the push service said it is gone, the browser unsubscribed,
-- a subscription change replaced it), and inactive subscriptions active again (`returned`: the
-- browser subscribed again). Active at a day's end = the sum of created + returned - expired over
-- that day and every day before it (a site has one row per day with a change, so that sum reads
-- at most a few thousand rows of its own); over all days it equals the site's active subscribers.
CREATE TABLE IF NOT EXISTS delivery.audience_daily (
  site_id uuid NOT NULL,
  day date NOT NULL,
  created bigint NOT NULL DEFAULT 0,
  expired bigint NOT NULL DEFAULT 0,
  returned bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (site_id, day)
);

-- Active subscribers per browser family (delivery.browser_of of the endpoint). A counter rather
-- than a count at view time: even an index-only path reads one entry per active subscriber at
-- every view (browser_of needs the endpoint, so an index on (site_id, endpoint) WHERE active:
-- endpoints are 100 to 500 bytes, a large site has 1,000,000 of them, and pages that subscriber
-- updates keep from being all-visible send it to the heap as well), where the counter reads five
-- rows.
CREATE TABLE IF NOT EXISTS delivery.audience_browsers (
  site_id uuid NOT NULL,
  browser text NOT NULL,
  users bigint NOT NULL,
  PRIMARY KEY (site_id, browser)
);

-- Statement-level triggers, like the audience counters (20250101000000_audience.sql), so every
-- statement that writes subscribers keeps these right without knowing of them. Each event's day
-- is the row's own moment: created_at for a new row; deactivated_at for an expiry (every writer
-- sets it to now(); now() if a writer left it null); updated_at for a return (the subscribe
-- statement sets it to now()). A row deleted while active counts as expired that day. Counter
-- rows are upserted in key order (site, day; site, browser) so two statements cannot deadlock on
-- them; and these triggers are named to fire after the audience counters' ("subscribers_counted_*"
-- < "subscribers_daily_*"), so every statement locks the audience counters' rows before these:
-- a transaction holding audience rows from one statement and waiting here in the next cannot
-- meet another holding these rows and waiting for audience rows.

CREATE OR REPLACE FUNCTION delivery.subscribers_daily_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery.audience_daily AS a (site_id, day, created, expired)
  SELECT site_id, day, sum(c), sum(e) FROM (
    SELECT site_id, delivery.utc_day(created_at) AS day, 1 AS c, 0 AS e FROM new_rows
    UNION ALL
    SELECT site_id, delivery.utc_day(coalesce(deactivated_at, now())), 0, 1 FROM new_rows WHERE NOT active) AS x
   GROUP BY site_id, day
   ORDER BY site_id, day
  ON CONFLICT (site_id, day) DO UPDATE SET created = a.created + EXCLUDED.created, expired = a.expired + EXCLUDED.expired;

  INSERT INTO delivery.audience_browsers AS b (site_id, browser, users)
  SELECT site_id, delivery.browser_of(endpoint) AS browser, count(*) FROM new_rows WHERE active
   GROUP BY 1, 2
   ORDER BY 1, 2
  ON CONFLICT (site_id, browser) DO UPDATE SET users = b.users + EXCLUDED.users;
  RETURN NULL;
END
$$;

-- Only rows whose active flag changed (or whose endpoint changed while active) count, found by
-- joining the statement's old and new rows on id: about a second more for a statement rewriting
-- 1,000,000 subscribers (topic maintenance; the statement itself takes several), nothing to
-- notice for the one-row statements of subscribing and page views.
CREATE OR REPLACE FUNCTION delivery.subscribers_daily_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS MATERIALIZED (
    SELECT n.site_id, n.active, o.active AS was_active, n.endpoint, o.endpoint AS old_endpoint,
           coalesce(n.deactivated_at, now()) AS deactivated_at, n.updated_at
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE n.active <> o.active OR (n.endpoint <> o.endpoint AND (n.active OR o.active))),
  daily AS (
    INSERT INTO delivery.audience_daily AS a (site_id, day, expired, returned)
    SELECT site_id, day, sum(e), sum(r) FROM (
      SELECT site_id, delivery.utc_day(deactivated_at) AS day, 1 AS e, 0 AS r FROM changed WHERE was_active AND NOT active
      UNION ALL
      SELECT site_id, delivery.utc_day(updated_at), 0, 1 FROM changed WHERE active AND NOT was_active) AS x
     GROUP BY site_id, day
     ORDER BY site_id, day
    ON CONFLICT (site_id, day) DO UPDATE SET expired = a.expired + EXCLUDED.expired, returned = a.returned + EXCLUDED.returned)
  INSERT INTO delivery.audience_browsers AS b (site_id, browser, users)
  SELECT site_id, browser, sum(d) FROM (
    SELECT site_id, delivery.browser_of(endpoint) AS browser, 1 AS d FROM changed WHERE active
    UNION ALL
    SELECT site_id, delivery.browser_of(old_endpoint), -1 FROM changed WHERE was_active) AS x
   GROUP BY 1, 2
  HAVING sum(d) <> 0
   ORDER BY 1, 2
  ON CONFLICT (site_id, browser) DO UPDATE SET users = b.users + EXCLUDED.users;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION delivery.subscribers_daily_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery.audience_daily AS a (site_id, day, expired)
  SELECT site_id, delivery.utc_day(now()), count(*) FROM old_rows WHERE active
   GROUP BY site_id
   ORDER BY site_id
  ON CONFLICT (site_id, day) DO UPDATE SET expired = a.expired + EXCLUDED.expired;

  INSERT INTO delivery.audience_browsers AS b (site_id, browser, users)
  SELECT site_id, delivery.browser_of(endpoint) AS browser, -count(*) FROM old_rows WHERE active
   GROUP BY 1, 2
   ORDER BY 1, 2
  ON CONFLICT (site_id, browser) DO UPDATE SET users = b.users + EXCLUDED.users;
  RETURN NULL;
END
$$;

-- Subscriber writes wait from here to this part's commit: only while the triggers are created
-- (milliseconds). The backfill's snapshot is taken before that commit (the part after the
-- directive below), so the backfill reads exactly the rows as they were without the triggers and
-- the triggers count every change after: none is counted twice or missed, and no subscribe waits
-- for the backfill (a few seconds at 1,000,000 rows). Safe to run again (a run cut short): the
-- counters start from zero and the backfill counts everything again.
LOCK TABLE delivery.subscribers IN SHARE ROW EXCLUSIVE MODE;
TRUNCATE delivery.audience_daily, delivery.audience_browsers;

CREATE OR REPLACE TRIGGER subscribers_daily_insert AFTER INSERT ON delivery.subscribers
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.subscribers_daily_insert();

CREATE OR REPLACE TRIGGER subscribers_daily_update AFTER UPDATE ON delivery.subscribers
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.subscribers_daily_update();

CREATE OR REPLACE TRIGGER subscribers_daily_delete AFTER DELETE ON delivery.subscribers
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.subscribers_daily_delete();

-- Backfill from the subscribers as they are. What it knows: every subscription's creation day,
-- and, for one inactive today, the day it last stopped being active (deactivated_at; updated_at
-- for a row without one). What it cannot know, because nothing kept it: a subscription that
-- expired and later subscribed again (subscribing clears deactivated_at) shows neither that
-- expiry nor its return, so it reads as active every day since its creation; an inactive one
-- that had expired and returned before shows only its last expiry. `returned` starts at zero.
-- So before this migration, `new` is exact, `expired` and `active` are as close as that allows
-- (active at a day's end can only be over-counted, by subscribers away that day and back since);
-- from this migration on, the triggers count every change as it happens.
-- migrate: next transaction, from the locked state
CREATE TEMP TABLE audience_daily_backfill AS
SELECT site_id, day, sum(c) AS created, sum(e) AS expired FROM (
  SELECT site_id, delivery.utc_day(created_at) AS day, 1 AS c, 0 AS e FROM delivery.subscribers
  UNION ALL
  SELECT site_id, delivery.utc_day(coalesce(deactivated_at, updated_at)), 0, 1 FROM delivery.subscribers WHERE NOT active) AS x
 GROUP BY site_id, day;

CREATE TEMP TABLE audience_browsers_backfill AS
SELECT site_id, delivery.browser_of(endpoint) AS browser, count(*) AS users FROM delivery.subscribers WHERE active GROUP BY 1, 2;

-- Added to what the triggers counted since: a few rows per site and day, locked for milliseconds.
-- migrate: next transaction
INSERT INTO delivery.audience_daily AS a (site_id, day, created, expired)
SELECT site_id, day, created, expired FROM audience_daily_backfill ORDER BY site_id, day
ON CONFLICT (site_id, day) DO UPDATE SET created = a.created + EXCLUDED.created, expired = a.expired + EXCLUDED.expired;

INSERT INTO delivery.audience_browsers AS b (site_id, browser, users)
SELECT site_id, browser, users FROM audience_browsers_backfill ORDER BY site_id, browser
ON CONFLICT (site_id, browser) DO UPDATE SET users = b.users + EXCLUDED.users;

-- The two TEMP tables above go with this connection's other temporary objects (it has none else).
DISCARD TEMP;
