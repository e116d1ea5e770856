-- The tags a site's pages may set for their identified visitor (`webpush('tag', key, value)`;
-- docs/people.md, "Tags from the page"): none unless an operator names them. Every other tag
-- only the site's server sets, through the API.
ALTER TABLE delivery.sites ADD COLUMN visitor_tags text[] NOT NULL DEFAULT '{}';
