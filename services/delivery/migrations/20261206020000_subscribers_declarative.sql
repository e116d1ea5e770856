-- Whether the subscriber's browser shows Declarative Web Push messages itself (the site plugin
-- says so at subscribe time: docs/site-plugin.md, "Safari and Declarative Web Push"). Such a
-- subscriber is sent the declarative format (sending/payloads.ts), every other one the service
-- worker's. A constant default: Postgres adds the column without rewriting the table.
ALTER TABLE delivery.subscribers ADD COLUMN declarative boolean NOT NULL DEFAULT false;
