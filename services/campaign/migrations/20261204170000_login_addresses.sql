-- The addresses a console user logged in from (docs/security.md, "Console logins"): the login
-- throttle lets them through where it holds back addresses the account has not used. Stored as
-- the SHA-256 of the email and the address, never the address; the latest 10 per user, for 90
-- days (the service trims them at each login, the purge after that).
CREATE TABLE login_addresses (
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  address_hash  text NOT NULL,
  last_login_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, address_hash)
);
CREATE INDEX login_addresses_at_idx ON login_addresses (last_login_at);

-- The throttle's per (email, address) count, a day of failures.
CREATE INDEX login_failures_pair_idx ON login_failures (email_hash, address, failed_at);
