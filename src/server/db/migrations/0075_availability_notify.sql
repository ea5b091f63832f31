-- Honest availability (docs/inventory.md "What buyers see"): product answers carry where a part
-- is on sale and the date one more unit on backorder can be promised, so the catalog's read
-- cache must be cleared when these change as it is when a product's stock total does: a count or
-- a transfer between locations (location_stock), a location renamed, moved or deactivated
-- (stock_locations), supply entered, re-dated, changed, received or cancelled (incoming_supply),
-- a product's backorder policy (backorder_policies) and the queue of waiting lines (backorders).
-- Statement-level, on the catalog's channel with the payload 'stock' (what only stock changed
-- says, migration 0041): every process's listener clears its answers and keeps the totals. One
-- message per transaction, whatever the rows (PostgreSQL folds equal notifications).
CREATE FUNCTION notify_availability_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', 'stock');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER location_stock_availability AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON location_stock FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER stock_locations_availability AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON stock_locations FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER incoming_supply_availability AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON incoming_supply FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER backorder_policies_availability AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON backorder_policies FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER backorders_availability AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON backorders FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
