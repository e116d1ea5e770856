-- Half of each delivery-log page left free (was 30 %), so the two updates of a row — 'sending',
-- then its outcome — stay HOT (no write to the primary key) when a batch covers every row of a
-- page. A batch's new versions need room next to the old ones, which cannot be pruned before the
-- batch commits: with 30 % free, about a quarter of the 'sending' marks and one outcome in seven
-- went to another page and into the index; with 50 %, none and one in fifteen (30,000 pushes in
-- batches as the bench makes them). Pages written from now on; existing pages keep their layout.
ALTER TABLE delivery.delivery_log SET (fillfactor = 50);
