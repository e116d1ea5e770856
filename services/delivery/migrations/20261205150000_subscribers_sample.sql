-- A fixed uniform sample of every site's active subscribers, 1 in 128 by a hash of the id: the rows
-- a segment with a time condition (subscribed after/before, engagement) is estimated from on a
-- large site (audience/audience.ts, "estimate"; docs/api-decisions.md, "Segments"). The hash of
-- an id is fixed, so a subscriber is in the sample or not for its whole life, independently of
-- its topics, country, language, zone, browser and dates; the sample is maintained by Postgres
-- like any index, with no trigger. Keyed by site, then by a slice 0–1023 from ten other bits of
-- the same hash: a count reads the slices below a limit (a range of the index), so a site of
-- 10,000,000 reads about as many sampled rows as one of 1,000,000 (audience.ts SAMPLE_ROWS).
-- Not covering (INCLUDE): topics (up to 20 × 1,000 characters) and the endpoint could pass a
-- btree entry's 2,704-byte limit and fail that subscriber's subscribe; the sampled rows are
-- read from the table instead (a bitmap heap scan of 1/128 of the site's rows).
-- Built CONCURRENTLY (a plain CREATE INDEX blocks every subscribe for the build); an invalid
-- index left by a failed concurrent build is dropped first, so the file can run again.
-- migrate: without transaction
DROP INDEX CONCURRENTLY IF EXISTS delivery.subscribers_sample;
CREATE INDEX CONCURRENTLY subscribers_sample ON delivery.subscribers (site_id, ((hashint8(id) >> 7) & 1023)) WHERE active AND (hashint8(id) & 127) = 0;
