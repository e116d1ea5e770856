-- Every subscriber of a site in id order, active or not: the keyset of the subscribers export
-- (audience/export.ts). The partial index on active rows serves campaigns; without this one each
-- page of an export read the whole table, quadratic in the site's size.
-- Built CONCURRENTLY: a plain CREATE INDEX holds a SHARE lock that blocks every subscribe for the
-- whole build (seconds at a million rows). A concurrent build that failed leaves an invalid index
-- of the same name: dropped first, so the file can run again.
-- migrate: without transaction
DROP INDEX CONCURRENTLY IF EXISTS delivery.subscribers_by_site_id;
CREATE INDEX CONCURRENTLY subscribers_by_site_id ON delivery.subscribers (site_id, id);
