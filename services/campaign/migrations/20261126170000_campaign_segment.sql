-- A campaign's segment (an addition of 2026-11-26: docs/api-decisions.md, "Segments"): the
-- conditions narrowing its audience, as the normalised JSON the API shows (json, not jsonb, so
-- the keys keep their order). Null: no segment, the audience is topics ∪ countries.
ALTER TABLE campaign.campaigns ADD COLUMN segment json;
