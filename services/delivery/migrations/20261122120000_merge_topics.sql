-- One definition of how a subscriber's topics are merged (subscribe again, page views,
-- subscription changes): the `first` array's names win a place before the `second` array's,
-- each group in name order (byte order), at most `cap` names, stored as a sorted set so the
-- audience group key stays canonical.
CREATE FUNCTION delivery.merge_topics(first text[], second text[], cap integer) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(t ORDER BY t COLLATE "C"), '{}') FROM (
    SELECT t FROM (
      SELECT t, min(p) AS p FROM (
        SELECT t, 0 AS p FROM unnest(first) AS t
        UNION ALL
        SELECT t, 1 AS p FROM unnest(second) AS t) AS both_sets
      GROUP BY t) AS ranked
    ORDER BY p, t COLLATE "C" LIMIT cap) AS kept
$$;
