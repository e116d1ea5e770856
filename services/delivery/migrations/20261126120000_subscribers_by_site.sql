-- Every subscriber of a site in id order, active or not: the keyset of the subscribers export
-- (audience/export.ts). The partial index on active rows serves campaigns; without this one each
-- page of an export read the whole table, quadratic in the site's size. Building it blocks
-- subscriber writes for a few seconds at a million rows.
CREATE INDEX subscribers_by_site_id ON delivery.subscribers (site_id, id);
