-- Retention by design (docs/architecture.md, "Retention"): the per-push and per-report detail of
-- runs — delivery.delivery_log and delivery.tracking — is written in weekly pieces that are
-- dropped whole once every run in them is long finished, never deleted row by row.
--
-- A piece is a pair of child tables that INHERIT from the two tables (table inheritance, not
-- declarative partitioning): delivery.delivery_log_YYYYMMDD and delivery.tracking_YYYYMMDD, named
-- by the Monday (UTC) of the week. Why inheritance: the previous release keeps running during a
-- roll-out and names delivery.delivery_log in its statements (ON CONFLICT (campaign_id,
-- subscriber_id) included), which a partitioned table (whose keys must hold the partition key)
-- could not take, and turning the existing table into one would take a lock for the whole
-- rewrite; children of the table as it is add nothing to its statements, and every reader of
-- delivery.delivery_log (aggregates, operators, the previous release) still sees every row. The
-- send path names its run's child directly (sending/delivery-log-store.ts), so its statements
-- are the same as before on a table of the same layout.
--
-- The rows already there (and those of runs written by a previous-release instance) stay in the
-- parents themselves and leave with TRUNCATE ONLY once every such run is long finished.
-- Nothing in this migration rewrites or scans a table: every step is catalog work.

-- The weeks whose pieces exist. Retention expires each half of a piece in two steps: it marks
-- the piece and its runs expired (from then on nothing writes there: tracking reports for those
-- runs are not counted), and drops the child table a grace period later, once statements that
-- began before the mark have ended (sending/retention.ts).
CREATE TABLE delivery.detail_pieces (
  piece date PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  log_expired_at timestamptz,
  log_dropped_at timestamptz,
  tracking_expired_at timestamptz,
  tracking_dropped_at timestamptz
);

-- Instances of this release say so: a run goes to a piece only while no live instance of the
-- previous release (which would write its rows into the parent) is heartbeating.
ALTER TABLE delivery.instances ADD COLUMN writes_pieces boolean NOT NULL DEFAULT false;

-- Creates the piece of week `p` (a Monday) if it is missing. Serialised by an advisory lock so
-- two instances never race on the DDL. CREATE TABLE … INHERITS takes SHARE UPDATE EXCLUSIVE on
-- the parents, which no read or write of them waits for. Triggers are not inherited: the tracking
-- child gets the parent's two.
CREATE FUNCTION delivery.ensure_detail_piece(p date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  suffix text := to_char(p, 'YYYYMMDD');
BEGIN
  IF extract(isodow FROM p) <> 1 THEN
    RAISE EXCEPTION 'a detail piece starts on a Monday, not %', p;
  END IF;
  IF EXISTS (SELECT 1 FROM delivery.detail_pieces WHERE piece = p) THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('delivery:detail-pieces'));
  IF EXISTS (SELECT 1 FROM delivery.detail_pieces WHERE piece = p) THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE TABLE delivery.%I (PRIMARY KEY (campaign_id, subscriber_id)) INHERITS (delivery.delivery_log) WITH (fillfactor = 50)',
                 'delivery_log_' || suffix);
  EXECUTE format('CREATE TABLE delivery.%I (PRIMARY KEY (campaign_id, subscriber_id, kind)) INHERITS (delivery.tracking)', 'tracking_' || suffix);
  EXECUTE format('CREATE TRIGGER tracking_engagement AFTER INSERT ON delivery.%I REFERENCING NEW TABLE AS new_rows '
                 'FOR EACH STATEMENT EXECUTE FUNCTION delivery.engagement_recorded()', 'tracking_' || suffix);
  EXECUTE format('CREATE TRIGGER tracking_webhook_buffered AFTER INSERT ON delivery.%I REFERENCING NEW TABLE AS new_rows '
                 'FOR EACH STATEMENT EXECUTE FUNCTION delivery.webhook_tracking_buffered()', 'tracking_' || suffix);
  INSERT INTO delivery.detail_pieces (piece) VALUES (p);
END
$$;

-- The week a moment falls in, as its Monday (UTC).
CREATE FUNCTION delivery.detail_week(t timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN date_trunc('week', t AT TIME ZONE 'UTC')::date;

SELECT delivery.ensure_detail_piece(delivery.detail_week(now()));
SELECT delivery.ensure_detail_piece(delivery.detail_week(now() + interval '7 days'));

-- Last, so the ACCESS EXCLUSIVE lock this takes on campaign_runs (every chunk updates its run's
-- counters) is held only for the commit: adding nullable columns is catalog work.
-- A run's piece (null: the parents), chosen when the run is created (sending/run-store.ts), and
-- when retention removed its detail: from then on its figures are the stored aggregates only
-- (campaign_runs' counters, ab_results, by_browser, campaign_minutes), and tracking reports for
-- it are no longer counted (their once-each check needs the detail).
ALTER TABLE delivery.campaign_runs
  ADD COLUMN log_piece date,
  ADD COLUMN log_expired_at timestamptz,
  ADD COLUMN tracking_expired_at timestamptz;
