-- The site owners' console (docs/console.md, "Who gets in"): accounts, their sites, sessions,
-- one-time links and login failures. Secrets are never stored as they are: a session id and a
-- link's token only as their SHA-256 (lowercase hex), a password only as its scrypt hash.

-- email: as entered, trimmed and lowercased by the service (the one way emails are compared).
-- password_hash: `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<key>` (base64, no padding): the
-- parameters travel with the hash, so they can be raised later and older hashes still verify.
CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email         text NOT NULL UNIQUE CHECK (length(email) BETWEEN 3 AND 254),
  password_hash text NOT NULL CHECK (password_hash LIKE '$scrypt$%'),
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE site_members (
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  site_id    uuid NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  role       text NOT NULL CHECK (role IN ('owner', 'editor')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, site_id)
);
CREATE INDEX site_members_site_idx ON site_members (site_id);

-- A session ends 12 hours after last_seen_at or 7 days after created_at, whichever is first;
-- last_seen_at moves at most once a minute. csrf_token is answered to the session's owner only.
CREATE TABLE sessions (
  id_hash      text PRIMARY KEY CHECK (id_hash ~ '^[0-9a-f]{64}$'),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  csrf_token   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_last_seen_idx ON sessions (last_seen_at);

-- Links printed by the operator CLI: an invite (a site and a role for an email, 7 days) or a
-- password reset (1 hour). used_at is set when one is accepted; a used or expired one is refused.
CREATE TABLE one_time_links (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  kind       text NOT NULL CHECK (kind IN ('invite', 'reset')),
  email      text NOT NULL,
  site_id    uuid REFERENCES sites (id) ON DELETE CASCADE,
  role       text CHECK (role IN ('owner', 'editor')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  CHECK ((kind = 'invite') = (site_id IS NOT NULL AND role IS NOT NULL))
);
CREATE INDEX one_time_links_expires_idx ON one_time_links (expires_at);

-- Failed logins of the last 15 minutes, by the SHA-256 of the email tried (whether or not it is
-- an account: the throttle answers alike) and by the client's address as the gateway decided it.
CREATE TABLE login_failures (
  id         bigserial PRIMARY KEY,
  email_hash text NOT NULL,
  address    text NOT NULL,
  failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_email_idx ON login_failures (email_hash, failed_at);
CREATE INDEX login_failures_address_idx ON login_failures (address, failed_at);
CREATE INDEX login_failures_at_idx ON login_failures (failed_at);

-- API keys as the console shows them: a label given at creation, and when the key was last used
-- (moved by the key check at most once a minute per key, so /v2 calls add no write).
ALTER TABLE api_keys
  ADD COLUMN label text NOT NULL DEFAULT '',
  ADD COLUMN last_used_at timestamptz;
