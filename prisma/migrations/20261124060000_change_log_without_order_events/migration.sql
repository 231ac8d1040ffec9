-- Order events leave no change log entry of their own. An order event is
-- written only by an order update, in the same statement as the order row,
-- whose own entry already moves the buyer's version; an order's events go
-- with the order when it is deleted, which logs the order. The entries only
-- cost every PATCH a second trigger run and log row (docs/performance.md,
-- "Second pass: writes, events and the 304").
DROP TRIGGER order_events_change_log_insert ON "order_events";
DROP TRIGGER order_events_change_log_update ON "order_events";
DROP TRIGGER order_events_change_log_delete ON "order_events";
DROP FUNCTION change_log_order_events_created();
DROP FUNCTION change_log_order_events_deleted();
