-- A site's audit log (docs/console.md, "Audit log"): one row per state-changing call the gateway
-- answered for the site, by a console user or an API key, written with its `audit.entry` webhook
-- event in one statement (audit/audit-store.ts). Append-only, enforced here rather than trusted
-- to the code: UPDATE and TRUNCATE are refused, and DELETE is refused for any row still within
-- its site's retention, so only the retention pass's purge of older rows gets through.

ALTER TABLE delivery.sites
  ADD COLUMN audit_retention_days integer NOT NULL DEFAULT 365 CHECK (audit_retention_days BETWEEN 7 AND 3650);

CREATE TABLE delivery.audit_log (
  id bigserial PRIMARY KEY,
  site_id uuid NOT NULL REFERENCES delivery.sites (site_id),
  at timestamptz NOT NULL DEFAULT now(),
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'key')),
  -- A user's email, or a key's id (with its prefix and label: never the key).
  actor text NOT NULL,
  actor_prefix text NOT NULL DEFAULT '',
  actor_label text NOT NULL DEFAULT '',
  action text NOT NULL,
  target text NOT NULL DEFAULT '',
  status smallint NOT NULL CHECK (status BETWEEN 100 AND 599),
  client_address text NOT NULL DEFAULT '',
  request_id text NOT NULL DEFAULT ''
);

-- The console's pages (newest first, by id) and the purge (a site's rows older than its retention).
CREATE INDEX audit_log_by_site ON delivery.audit_log (site_id, id);
CREATE INDEX audit_log_by_site_time ON delivery.audit_log (site_id, at);

CREATE FUNCTION delivery.audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'delivery.audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON delivery.audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.audit_log_refuse_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON delivery.audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.audit_log_refuse_change();

-- After the statement, over every row it deleted: one still within its site's retention undoes
-- the whole statement.
CREATE FUNCTION delivery.audit_log_refuse_early_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM gone g JOIN delivery.sites s ON s.site_id = g.site_id
              WHERE g.at >= now() - s.audit_retention_days * interval '1 day') THEN
    RAISE EXCEPTION 'delivery.audit_log is append-only: an entry within its site''s retention cannot be deleted'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER audit_log_delete_only_expired AFTER DELETE ON delivery.audit_log
  REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION delivery.audit_log_refuse_early_delete();
