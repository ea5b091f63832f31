-- The vehicle database for admins (docs/vehicles.md). A VCdb id names one record of its table:
-- admins set them so ACES files, which refer to VCdb ids, match.
CREATE UNIQUE INDEX "vehicle_makes_vcdb_make_id_unique" ON "vehicle_makes" USING btree ("vcdb_make_id") WHERE "vehicle_makes"."vcdb_make_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "vehicle_models_vcdb_model_id_unique" ON "vehicle_models" USING btree ("vcdb_model_id") WHERE "vehicle_models"."vcdb_model_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "base_vehicles_vcdb_base_vehicle_id_unique" ON "base_vehicles" USING btree ("vcdb_base_vehicle_id") WHERE "base_vehicles"."vcdb_base_vehicle_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "vehicle_submodels_vcdb_submodel_id_unique" ON "vehicle_submodels" USING btree ("vcdb_submodel_id") WHERE "vehicle_submodels"."vcdb_submodel_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "vehicle_engines_vcdb_engine_config_id_unique" ON "vehicle_engines" USING btree ("vcdb_engine_config_id") WHERE "vehicle_engines"."vcdb_engine_config_id" is not null;--> statement-breakpoint
ALTER TABLE "vehicle_makes" ADD CONSTRAINT "vehicle_makes_vcdb_make_id_positive" CHECK ("vehicle_makes"."vcdb_make_id" > 0);--> statement-breakpoint
ALTER TABLE "vehicle_models" ADD CONSTRAINT "vehicle_models_vcdb_model_id_positive" CHECK ("vehicle_models"."vcdb_model_id" > 0);--> statement-breakpoint
ALTER TABLE "base_vehicles" ADD CONSTRAINT "base_vehicles_vcdb_base_vehicle_id_positive" CHECK ("base_vehicles"."vcdb_base_vehicle_id" > 0);--> statement-breakpoint
ALTER TABLE "vehicle_submodels" ADD CONSTRAINT "vehicle_submodels_vcdb_submodel_id_positive" CHECK ("vehicle_submodels"."vcdb_submodel_id" > 0);--> statement-breakpoint
ALTER TABLE "vehicle_engines" ADD CONSTRAINT "vehicle_engines_vcdb_engine_config_id_positive" CHECK ("vehicle_engines"."vcdb_engine_config_id" > 0);--> statement-breakpoint
-- A vehicle change is a catalog change (the selector, a product's fitment in words, the list
-- filtered by a vehicle): every process's read cache hears of it. Row-level, so a write that
-- changes no row (the demo seeding again, an import of a file already in) says nothing;
-- PostgreSQL sends the identical notifications of one transaction once.
CREATE FUNCTION notify_vehicles_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', 'catalog');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER vehicle_makes_changed AFTER INSERT OR UPDATE OR DELETE ON vehicle_makes
  FOR EACH ROW EXECUTE FUNCTION notify_vehicles_changed();
--> statement-breakpoint
CREATE TRIGGER vehicle_models_changed AFTER INSERT OR UPDATE OR DELETE ON vehicle_models
  FOR EACH ROW EXECUTE FUNCTION notify_vehicles_changed();
--> statement-breakpoint
CREATE TRIGGER base_vehicles_changed AFTER INSERT OR UPDATE OR DELETE ON base_vehicles
  FOR EACH ROW EXECUTE FUNCTION notify_vehicles_changed();
--> statement-breakpoint
CREATE TRIGGER vehicle_submodels_changed AFTER INSERT OR UPDATE OR DELETE ON vehicle_submodels
  FOR EACH ROW EXECUTE FUNCTION notify_vehicles_changed();
--> statement-breakpoint
CREATE TRIGGER vehicle_engines_changed AFTER INSERT OR UPDATE OR DELETE ON vehicle_engines
  FOR EACH ROW EXECUTE FUNCTION notify_vehicles_changed();
--> statement-breakpoint
CREATE TRIGGER base_vehicle_engines_changed AFTER INSERT OR UPDATE OR DELETE ON base_vehicle_engines
  FOR EACH ROW EXECUTE FUNCTION notify_vehicles_changed();
