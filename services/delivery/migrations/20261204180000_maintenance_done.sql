-- One-off maintenance passes that run in the background after an upgrade, in short batches,
-- instead of one migration transaction over a large table (which would hold row locks that
-- subscribes wait on): each task's row is written when it has finished.
CREATE TABLE delivery.maintenance_done (
  task text PRIMARY KEY,
  done_at timestamptz NOT NULL DEFAULT now()
);
