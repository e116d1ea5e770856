-- People's signals to the campaign service (docs/people.md, "Signals"; messages: contracts'
-- PeopleMessage on delivery.people.v1): an outbox. Each row is written in the transaction of the
-- fact it reports — a link, a privacy delete, a tag change, a click on a person's notification,
-- a person's last active subscription ending — and deleted once published (people/
-- signal-publisher.ts), so a crash between the two loses nothing: the row is published again.
-- One row per message; which of the optional columns a kind fills is the message's.
CREATE TABLE delivery.person_signals (
  id              bigserial PRIMARY KEY,
  site_id         uuid NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('person.subscribed', 'person.deleted', 'person.unsubscribed', 'notification.clicked', 'person.tagged')),
  external_id     text NOT NULL,
  subscribed_at   timestamptz,
  notification_id uuid,
  tags            jsonb,
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- person.unsubscribed when a person's last active subscription stops being active, whichever
-- statement did it (the browser unsubscribed, the push service said it is gone). A row trigger
-- whose WHEN is evaluated without calling the function: the subscribers' other updates (topics,
-- engagement) cost nothing here. Fired after the statement, so two subscriptions of one person
-- ended by one statement both see none left: two messages, and the consumer is idempotent.
CREATE FUNCTION delivery.person_signal_unsubscribed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery.person_signals (site_id, kind, external_id)
  SELECT p.site_id, 'person.unsubscribed', p.external_id
    FROM delivery.person_subscriptions l JOIN delivery.people p ON p.id = l.person_id
   WHERE l.subscriber_id = NEW.id
     AND NOT EXISTS (SELECT 1 FROM delivery.person_subscriptions o JOIN delivery.subscribers s ON s.id = o.subscriber_id AND s.active
                      WHERE o.person_id = l.person_id);
  RETURN NULL;
END
$$;

CREATE TRIGGER subscribers_person_unsubscribed AFTER UPDATE OF active ON delivery.subscribers
  FOR EACH ROW WHEN (OLD.active AND NOT NEW.active) EXECUTE FUNCTION delivery.person_signal_unsubscribed();
