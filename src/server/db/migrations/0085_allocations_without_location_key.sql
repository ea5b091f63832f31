-- An allocation's location is no longer a foreign key (issue 53, the orders benchmark): checking
-- it took a KEY SHARE lock on the location's row in every placement, and as the placements near
-- one warehouse all lock the same row, concurrent ones shared it through a multixact, which
-- PostgreSQL builds anew for each locker (a test of 40 connections made one for 3,998 of 4,000
-- such transactions, none without the key). The orders benchmark's PostgreSQL CPU per order was
-- 0.5 ms above the revision before locations at 25 and 50 connections, and equal at 10.
-- Locations are never deleted (they are deactivated, and none while units are allocated there):
-- a trigger refuses a DELETE, so no allocation can name a location that is gone. TRUNCATE
-- (restoring a backup) fires no row trigger.
ALTER TABLE "stock_allocations" DROP CONSTRAINT "stock_allocations_location_id_fkey";
--> statement-breakpoint
CREATE FUNCTION refuse_location_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a stock location is never deleted: deactivate it'
    USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER stock_locations_never_deleted BEFORE DELETE ON "stock_locations"
  FOR EACH ROW EXECUTE FUNCTION refuse_location_delete();
