-- Claims an owner can recognise, and pushes marked just before they go out (issue 11, defects 1 and 3).
--
-- lease: every attempt at a chunk (one handler call) claims its rows under a lease of its own.
-- A row not final whose lease is not live can be taken over — by the same instance too, which is
-- what lets a chunk retried after a failed query resume its own claimed rows instead of skipping
-- them. A lease is live while its row below exists and its instance heartbeats; the instance
-- itself knows its live leases (sending/leases.ts). Rows claimed before this migration have no
-- lease: they are live while the instance that claimed them heartbeats, as before.
--
-- state 'sending': set (in group-committed batches) right before a push's first request, so
-- after a kill only the rows whose request may have gone out are ambiguous; 'claimed' rows were
-- never sent and are simply sent by whoever takes them over.
--
-- ambiguous: how many times this row's push may have reached the browser more than once — taken
-- over while 'sending', or accepted only after a connection broke mid-request. The run's
-- `ambiguous` counter is the sum, added in the same statements.
ALTER TABLE delivery.delivery_log DROP CONSTRAINT delivery_log_state_check;
ALTER TABLE delivery.delivery_log
  ADD CONSTRAINT delivery_log_state_check CHECK (state IN ('claimed', 'sending', 'sent', 'expired', 'failed')) NOT VALID;
ALTER TABLE delivery.delivery_log VALIDATE CONSTRAINT delivery_log_state_check;
-- Neither column is indexed, so recording an outcome stays a HOT update.
ALTER TABLE delivery.delivery_log ADD COLUMN lease uuid;
ALTER TABLE delivery.delivery_log ADD COLUMN ambiguous smallint NOT NULL DEFAULT 0;

-- Live chunk attempts: inserted before the first claim under the lease, deleted when the attempt
-- ends (or by the instance's next heartbeat when that delete failed).
CREATE TABLE delivery.claim_leases (
  id uuid PRIMARY KEY,
  instance_id uuid NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX claim_leases_by_instance ON delivery.claim_leases (instance_id);
