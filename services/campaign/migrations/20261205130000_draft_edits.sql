-- Drafts are edited in place from the console (docs/console.md, "Drafts"). edited_at is the
-- moment of a draft's last edit (null: never edited): a local-time plan made by that edit is
-- measured from it, so the relay names it to the delivery service instead of created_at (which
-- stays the creation, as the API shows it). A nullable column without a default only changes the
-- catalogue.
ALTER TABLE campaign.campaigns ADD COLUMN edited_at timestamptz;
