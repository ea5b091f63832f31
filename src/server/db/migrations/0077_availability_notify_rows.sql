-- The availability triggers of migration 0075 fire per row changed, not per statement: a statement
-- trigger also fires for the statements a foreign key's cascade runs with no row to change, so
-- every product deleted said 'stock' besides 'catalog'. A transaction still sends one message
-- (PostgreSQL folds equal notifications); TRUNCATE, which has no rows, keeps a statement trigger.
DROP TRIGGER location_stock_availability ON location_stock;
--> statement-breakpoint
DROP TRIGGER stock_locations_availability ON stock_locations;
--> statement-breakpoint
DROP TRIGGER incoming_supply_availability ON incoming_supply;
--> statement-breakpoint
DROP TRIGGER backorder_policies_availability ON backorder_policies;
--> statement-breakpoint
DROP TRIGGER backorders_availability ON backorders;
--> statement-breakpoint
CREATE TRIGGER location_stock_availability AFTER INSERT OR UPDATE OR DELETE
  ON location_stock FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER stock_locations_availability AFTER INSERT OR UPDATE OR DELETE
  ON stock_locations FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER incoming_supply_availability AFTER INSERT OR UPDATE OR DELETE
  ON incoming_supply FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER backorder_policies_availability AFTER INSERT OR UPDATE OR DELETE
  ON backorder_policies FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER backorders_availability AFTER INSERT OR UPDATE OR DELETE
  ON backorders FOR EACH ROW EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER location_stock_availability_truncate AFTER TRUNCATE
  ON location_stock FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER stock_locations_availability_truncate AFTER TRUNCATE
  ON stock_locations FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER incoming_supply_availability_truncate AFTER TRUNCATE
  ON incoming_supply FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER backorder_policies_availability_truncate AFTER TRUNCATE
  ON backorder_policies FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER backorders_availability_truncate AFTER TRUNCATE
  ON backorders FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
