-- RSS and Atom feeds whose new items become campaigns (docs/api-decisions.md, "Feeds").
-- `settings` is what each item's campaign is sent with besides the item's own fields: the create
-- body's audience (topics, countries, segment), utm fields, icon and template reference, as the
-- customer gave them (validated with the create's rules when saved). The rest is the poller's:
-- when the feed is due, the lease of the instance polling it, the conditional-GET validators of
-- the last answer, and what the last fetch did (visible in GET /v2/feeds/{id}).
CREATE TABLE feeds (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  site_id               uuid NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  url                   text NOT NULL,
  poll_interval_minutes integer NOT NULL CHECK (poll_interval_minutes BETWEEN 5 AND 1440),
  settings              jsonb NOT NULL,
  paused                boolean NOT NULL DEFAULT false,
  -- False until the first successful poll, which only marks the items already there as seen.
  primed                boolean NOT NULL DEFAULT false,
  title                 text,
  etag                  text,
  last_modified         text,
  next_poll_at          timestamptz NOT NULL DEFAULT now(),
  lease_id              uuid,
  lease_until           timestamptz,
  last_fetched_at       timestamptz,
  last_success_at       timestamptz,
  last_error            text,
  consecutive_failures  integer NOT NULL DEFAULT 0,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feeds_site_created_idx ON feeds (site_id, created_at DESC, id DESC);
-- The poller's claim: the due, unpaused feeds, soonest first.
CREATE INDEX feeds_due_idx ON feeds (next_poll_at) WHERE NOT paused;

-- Every item a feed has seen, by its key (guid / Atom id, else its link) hashed (SHA-256: any
-- length of key, one width of index). Written in the transaction that creates the item's
-- campaign, so an item becomes a campaign at most once, whatever crashes or races; campaign_id is
-- null for an item only marked seen (the first poll's, or one beyond a poll's bound, or one that
-- makes no valid campaign: `skipped` says why).
CREATE TABLE feed_items (
  feed_id     uuid NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
  key_hash    bytea NOT NULL,
  campaign_id uuid,
  skipped     text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (feed_id, key_hash)
);
