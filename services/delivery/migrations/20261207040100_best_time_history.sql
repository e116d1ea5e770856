-- The hour weights of best time (20261207040000_best_time.sql) from the reports already stored,
-- then kept by the tracking trigger from now on.
--
-- First the history: every stored report folded as the trigger folds a batch (each subscriber's
-- reports decayed to its latest), in a transaction of its own that only reads delivery.tracking
-- (no write waits for it). Subscribers that already have weights are left as they are, so the
-- part can run again.
INSERT INTO delivery.subscriber_hours AS h (subscriber_id, weights, weighed_at)
WITH e AS (
  SELECT t.subscriber_id, extract(hour FROM t.at AT TIME ZONE 'UTC')::int AS hr, t.kind, t.at
    FROM delivery.tracking t JOIN delivery.subscribers s ON s.id = t.subscriber_id),
latest AS (SELECT subscriber_id, max(at) AS at FROM e GROUP BY subscriber_id),
by_hour AS (
  SELECT e.subscriber_id, e.hr, sum(delivery.hour_event_weight(e.kind) * delivery.hour_decay(e.at, l.at)) AS w
    FROM e JOIN latest l USING (subscriber_id) GROUP BY e.subscriber_id, e.hr)
SELECT l.subscriber_id, array_agg(coalesce(b.w, 0)::real ORDER BY hr.hr), l.at
  FROM latest l CROSS JOIN generate_series(0, 23) AS hr(hr)
  LEFT JOIN by_hour b ON b.subscriber_id = l.subscriber_id AND b.hr = hr.hr
 GROUP BY l.subscriber_id, l.at
 ORDER BY l.subscriber_id
ON CONFLICT (subscriber_id) DO NOTHING;

-- Then the trigger, which keeps both the last engagement (as before) and the hour weights. A
-- batch's reports are folded per subscriber: the stored weights decayed to the batch's latest
-- report, plus each report decayed from its own moment to that one. Reports stored between the
-- two parts (the moments of a commit) are not in the weights: a few reports, never counted twice.
-- migrate: next transaction
CREATE OR REPLACE FUNCTION delivery.engagement_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- In subscriber order: two batches upserting the same subscribers lock them in the same order.
  INSERT INTO delivery.subscriber_engagement AS e (subscriber_id, last_engaged_at)
  SELECT n.subscriber_id, max(n.at) FROM new_rows n JOIN delivery.subscribers s ON s.id = n.subscriber_id
   GROUP BY n.subscriber_id ORDER BY n.subscriber_id
  ON CONFLICT (subscriber_id) DO UPDATE SET last_engaged_at = greatest(e.last_engaged_at, EXCLUDED.last_engaged_at);
  WITH e AS (
    SELECT n.subscriber_id, extract(hour FROM n.at AT TIME ZONE 'UTC')::int AS hr, n.kind, n.at
      FROM new_rows n JOIN delivery.subscribers s ON s.id = n.subscriber_id),
  latest AS (SELECT subscriber_id, max(at) AS at FROM e GROUP BY subscriber_id),
  by_hour AS (
    SELECT e.subscriber_id, e.hr, sum(delivery.hour_event_weight(e.kind) * delivery.hour_decay(e.at, l.at)) AS w
      FROM e JOIN latest l USING (subscriber_id) GROUP BY e.subscriber_id, e.hr)
  INSERT INTO delivery.subscriber_hours AS h (subscriber_id, weights, weighed_at)
  SELECT l.subscriber_id, array_agg(coalesce(b.w, 0)::real ORDER BY hr.hr), l.at
    FROM latest l CROSS JOIN generate_series(0, 23) AS hr(hr)
    LEFT JOIN by_hour b ON b.subscriber_id = l.subscriber_id AND b.hr = hr.hr
   GROUP BY l.subscriber_id, l.at
   ORDER BY l.subscriber_id
  ON CONFLICT (subscriber_id) DO UPDATE
    SET weights = ARRAY(SELECT o.w * delivery.hour_decay(h.weighed_at, greatest(h.weighed_at, EXCLUDED.weighed_at))
                             + o.x * delivery.hour_decay(EXCLUDED.weighed_at, greatest(h.weighed_at, EXCLUDED.weighed_at))
                          FROM unnest(h.weights, EXCLUDED.weights) WITH ORDINALITY AS o(w, x, i) ORDER BY o.i),
        weighed_at = greatest(h.weighed_at, EXCLUDED.weighed_at);
  RETURN NULL;
END
$$;
