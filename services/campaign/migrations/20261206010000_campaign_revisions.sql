-- Revisions of a sent campaign (docs/api-decisions.md, "Update and recall"): each update (the
-- content as corrected, whole) or recall, numbered 1, 2, … per campaign. The row's id is the
-- revision's own: the delivery service runs it as a run of that id (its delivery-log rows keep
-- each subscriber's push once), the outbox row that hands it over names the campaign and this id.
CREATE TABLE campaign_revisions (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  campaign_id uuid NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  revision    integer NOT NULL CHECK (revision >= 1),
  action      text NOT NULL CHECK (action IN ('update', 'recall')),
  -- An update's content (@webpush/contracts campaign-content.ts, as the dispatch message carries
  -- it); null for a recall, which sends none.
  content     jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (campaign_id, revision)
);
