-- Runs with search_path = campaign, public (see shared migrate()).

CREATE TABLE plans (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text NOT NULL UNIQUE,
  can_create   boolean NOT NULL DEFAULT false,
  can_reports  boolean NOT NULL DEFAULT false,
  can_delete   boolean NOT NULL DEFAULT false,
  can_audience boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sites (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  public_id  text NOT NULL UNIQUE,
  plan_id    uuid NOT NULL REFERENCES plans (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a key is kept; the prefix lets an operator (or a secret scanner) tell keys apart.
CREATE TABLE api_keys (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  site_id    uuid NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  key_hash   text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  prefix     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_site_idx ON api_keys (site_id, created_at);

CREATE TABLE campaigns (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  site_id        uuid NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  title          text NOT NULL,
  body           text NOT NULL,
  link           text NOT NULL,
  topics         text[] NOT NULL,
  status         text NOT NULL CHECK (status IN ('published', 'draft', 'failed')),
  schedule_mode  text NOT NULL CHECK (schedule_mode IN ('now', 'scheduled')),
  schedule_date  timestamptz NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  dispatched_at  timestamptz,
  total_users    bigint NOT NULL DEFAULT 0,
  image          text,
  icon           text,
  call_to_action text NOT NULL DEFAULT '',
  utm_source     text NOT NULL DEFAULT '',
  utm_medium     text NOT NULL DEFAULT '',
  utm_campaign   text NOT NULL DEFAULT '',
  ttl            integer NOT NULL CHECK (ttl BETWEEN 1 AND 2419200)
);
-- Keyset pagination, one index per sortable date field.
CREATE INDEX campaigns_site_created_idx ON campaigns (site_id, created_at DESC, id DESC);
CREATE INDEX campaigns_site_schedule_idx ON campaigns (site_id, schedule_date DESC, id DESC);
-- The scheduler only ever looks at published campaigns still waiting for dispatch.
CREATE INDEX campaigns_due_idx ON campaigns (schedule_date) WHERE status = 'published' AND dispatched_at IS NULL;

-- Counters kept up to date from delivery events, so list/get never aggregate raw events.
CREATE TABLE campaign_stats (
  campaign_id uuid PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
  sent        bigint NOT NULL DEFAULT 0,
  failed      bigint NOT NULL DEFAULT 0,
  expired     bigint NOT NULL DEFAULT 0,
  impressions bigint NOT NULL DEFAULT 0,
  clicks      bigint NOT NULL DEFAULT 0
);

-- No foreign key to campaigns: an outbox row is a record of what was handed over and outlives its campaign.
CREATE TABLE outbox (
  id           bigserial PRIMARY KEY,
  campaign_id  uuid NOT NULL,
  kind         text NOT NULL,
  payload      jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);
CREATE INDEX outbox_unpublished_idx ON outbox (id) WHERE published_at IS NULL;
CREATE INDEX outbox_campaign_idx ON outbox (campaign_id);

-- campaign_id is the answer replayed for a repeated key, so it is kept even if the campaign is later deleted.
CREATE TABLE idempotency_keys (
  site_id      uuid NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  key          text NOT NULL,
  request_hash text NOT NULL,
  campaign_id  uuid NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site_id, key)
);
