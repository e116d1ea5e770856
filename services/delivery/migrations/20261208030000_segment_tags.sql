-- A segment's tag conditions (audience/segment-sql.ts, tagConditionSql; docs/api-decisions.md,
-- "Segments") read person_tags from a subscriber (the primary key (person_id, key): one probe),
-- or, when a condition is selective, from the value: these indexes let the planner start from
-- the people whose tag matches (then person_subscriptions_person, then the subscribers' primary
-- key) instead of reading every subscriber of the site. One per kind, each holding only its
-- kind's rows, keyed by the tag's key first: a condition always names its key. The key alone
-- serves `exists` and a boolean's `equals` (two values: the key is what selects).
-- A string tag is at most 256 characters (1,024 bytes), under a btree entry's 2,704-byte limit.
-- Built CONCURRENTLY (a plain CREATE INDEX blocks every tag write for the build); an invalid
-- index left by a failed concurrent build is dropped first, so the file can run again.
-- migrate: without transaction
DROP INDEX CONCURRENTLY IF EXISTS delivery.person_tags_string_value;
CREATE INDEX CONCURRENTLY person_tags_string_value ON delivery.person_tags (key, string_value) WHERE kind = 'string';
DROP INDEX CONCURRENTLY IF EXISTS delivery.person_tags_number_value;
CREATE INDEX CONCURRENTLY person_tags_number_value ON delivery.person_tags (key, number_value) WHERE kind = 'number';
DROP INDEX CONCURRENTLY IF EXISTS delivery.person_tags_date_value;
CREATE INDEX CONCURRENTLY person_tags_date_value ON delivery.person_tags (key, date_value) WHERE kind = 'date';
DROP INDEX CONCURRENTLY IF EXISTS delivery.person_tags_key;
CREATE INDEX CONCURRENTLY person_tags_key ON delivery.person_tags (key);
