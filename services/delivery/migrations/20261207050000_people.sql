-- Identified subscribers (issue 37; docs/people.md): the site's own user ids ("people") and the
-- subscriptions each one was identified on, with the per-site secret that proves an id.

-- The site's identity secret: the customer's server signs a user id with it (hex HMAC-SHA256),
-- the plugin hands id and signature over, and this service verifies them. Sealed like a webhook
-- signing secret (people/identity-secret.ts), bound to the site. Made on demand by the operator
-- CLI (`sites identity-secret`); a site without one identifies nobody.
CREATE TABLE delivery.site_identity_secrets (
  site_id uuid PRIMARY KEY REFERENCES delivery.sites (site_id) ON DELETE CASCADE,
  secret_enc bytea NOT NULL,
  -- During a rotation: the secret before, still accepted until previous_secret_expires_at, so
  -- pages signed before the rotation keep identifying while the customer deploys the new one.
  previous_secret_enc bytea,
  previous_secret_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz
);

CREATE TABLE delivery.people (
  id bigserial PRIMARY KEY,
  site_id uuid NOT NULL REFERENCES delivery.sites (site_id) ON DELETE CASCADE,
  -- The site's own user id, exactly as signed: 1 to 128 characters, no control character.
  external_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, external_id)
);

-- A subscription belongs to at most one person (the primary key); a person has any number.
-- A table of its own rather than a column of delivery.subscribers: linking and unlinking then
-- never runs the subscribers' statement-level counter triggers.
CREATE TABLE delivery.person_subscriptions (
  subscriber_id bigint PRIMARY KEY REFERENCES delivery.subscribers (id) ON DELETE CASCADE,
  person_id bigint NOT NULL REFERENCES delivery.people (id) ON DELETE CASCADE,
  linked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX person_subscriptions_person ON delivery.person_subscriptions (person_id);
