-- The template a campaign was rendered from, `{"id": …, "version": …}`, or null (inline content,
-- or a draft since edited in the console). No foreign key: the template may be edited or deleted
-- later; the campaign keeps the content it was rendered to and this record of where it came from.
ALTER TABLE campaigns ADD COLUMN template jsonb;
