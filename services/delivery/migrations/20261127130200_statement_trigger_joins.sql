-- Two statement triggers on delivery.subscribers find a statement's changed subscribers by joining
-- its old and new rows on id: the daily counters' (20261127130100_audience_daily.sql) and the
-- subscriber.expired webhook's (20261126150000_webhooks.sql). PL/pgSQL plans such a query once
-- per connection, with the row counts of the first statement it sees — usually one row — and
-- keeps the plan: a nested loop, which for a later statement over many subscribers (a topic
-- renamed, merged or deleted) compares every old row with every new one: 11.6 s at 30,000
-- subscribers, minutes at 100,000. Without nested loops the join is a hash or merge join whatever
-- the counts it was planned for (about 0.2 s for 300,000 rows). Neither function has another join.
ALTER FUNCTION delivery.subscribers_daily_update() SET enable_nestloop = off;
ALTER FUNCTION delivery.webhook_subscribers_expired() SET enable_nestloop = off;
