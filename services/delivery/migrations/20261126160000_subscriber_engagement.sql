-- A subscriber's last engagement: its latest impression or click (the subscribers export's
-- `lastEngagedAt`, and what "engaged within N days" audiences will read). Kept by a trigger on
-- delivery.tracking, one upsert per stored batch, so no statement that records tracking has to
-- remember it. A table of its own, not a column of delivery.subscribers: an UPDATE there runs the
-- audience counters' statement triggers for every batch of clicks.
CREATE TABLE IF NOT EXISTS delivery.subscriber_engagement (
  subscriber_id bigint PRIMARY KEY REFERENCES delivery.subscribers (id) ON DELETE CASCADE,
  last_engaged_at timestamptz NOT NULL
);

CREATE OR REPLACE FUNCTION delivery.engagement_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- In subscriber order: two batches upserting the same subscribers lock them in the same order.
  INSERT INTO delivery.subscriber_engagement AS e (subscriber_id, last_engaged_at)
  SELECT n.subscriber_id, max(n.at) FROM new_rows n JOIN delivery.subscribers s ON s.id = n.subscriber_id
   GROUP BY n.subscriber_id ORDER BY n.subscriber_id
  ON CONFLICT (subscriber_id) DO UPDATE SET last_engaged_at = greatest(e.last_engaged_at, EXCLUDED.last_engaged_at);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER tracking_engagement AFTER INSERT ON delivery.tracking
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.engagement_recorded();

-- The engagement before the trigger, in a transaction of its own: the table, its foreign key and
-- the trigger above lock delivery.subscribers and delivery.tracking against writes only until
-- they commit (milliseconds), never for this read of every tracking row. A maximum: the trigger's
-- upserts and this one agree in any order, and the file can run again.
-- migrate: next transaction
INSERT INTO delivery.subscriber_engagement AS e (subscriber_id, last_engaged_at)
SELECT t.subscriber_id, max(t.at) FROM delivery.tracking t JOIN delivery.subscribers s ON s.id = t.subscriber_id
 GROUP BY t.subscriber_id ORDER BY t.subscriber_id
ON CONFLICT (subscriber_id) DO UPDATE SET last_engaged_at = greatest(e.last_engaged_at, EXCLUDED.last_engaged_at);
