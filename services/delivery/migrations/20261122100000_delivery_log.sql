-- Sending: one run per dispatched campaign, the chunks it was split into, the per-subscription
-- delivery log (claimed before a push is sent), tracking reports, and live instances.

-- The campaign as handed over (job) and its counters; the campaign service keeps a copy of the
-- counters from the stats events this table's changes produce.
CREATE TABLE delivery.campaign_runs (
  campaign_id uuid PRIMARY KEY,
  site_id uuid NOT NULL,
  job jsonb NOT NULL,
  state text NOT NULL DEFAULT 'expanding' CHECK (state IN ('expanding', 'sending', 'completed', 'failed')),
  -- Expansion resumes after the last subscriber id already put in a chunk.
  expanded_through bigint NOT NULL DEFAULT 0,
  chunks_published integer NOT NULL DEFAULT 0,
  chunks_total integer,
  chunks_done integer NOT NULL DEFAULT 0,
  audience_size bigint NOT NULL DEFAULT 0,
  sent bigint NOT NULL DEFAULT 0,
  failed bigint NOT NULL DEFAULT 0,
  expired bigint NOT NULL DEFAULT 0,
  ambiguous bigint NOT NULL DEFAULT 0,
  impressions bigint NOT NULL DEFAULT 0,
  clicks bigint NOT NULL DEFAULT 0,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);

CREATE TABLE delivery.campaign_chunks (
  campaign_id uuid NOT NULL,
  chunk_no integer NOT NULL,
  done_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (campaign_id, chunk_no)
);

-- One row per (campaign, subscription): claimed before the push is sent, so a redelivered chunk
-- never sends again what was sent; a row still 'claimed' by a dead instance is ambiguous.
CREATE TABLE delivery.delivery_log (
  campaign_id uuid NOT NULL,
  subscriber_id bigint NOT NULL,
  state text NOT NULL CHECK (state IN ('claimed', 'sent', 'expired', 'failed')),
  claimed_by uuid NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  attempts smallint NOT NULL DEFAULT 1,
  status smallint,
  reason text,
  finished_at timestamptz,
  PRIMARY KEY (campaign_id, subscriber_id)
) WITH (fillfactor = 70); -- room on each page so recording the outcome is a HOT update (no index write)

-- At most one impression and one click per (campaign, subscription): a service worker that
-- reports twice is counted once.
CREATE TABLE delivery.tracking (
  campaign_id uuid NOT NULL,
  subscriber_id bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('impression', 'click')),
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (campaign_id, subscriber_id, kind)
);

-- Live delivery instances; a claim held by an instance without a recent heartbeat can be taken over.
CREATE TABLE delivery.instances (
  id uuid PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);
