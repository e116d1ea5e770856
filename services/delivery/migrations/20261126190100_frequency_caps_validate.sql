-- Checks the delivery log's existing rows against the state constraint the previous migration
-- added NOT VALID. In a transaction of its own: VALIDATE CONSTRAINT reads the whole table under a
-- SHARE UPDATE EXCLUSIVE lock, which sends (inserts and updates) do not wait for.
ALTER TABLE delivery.delivery_log VALIDATE CONSTRAINT delivery_log_state_check;
