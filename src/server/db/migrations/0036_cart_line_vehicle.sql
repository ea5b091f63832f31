ALTER TABLE "cart_items" ADD COLUMN "vehicle_base_vehicle_id" integer;--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "vehicle_engine_id" integer;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_vehicle_base_vehicle_id_base_vehicles_id_fk" FOREIGN KEY ("vehicle_base_vehicle_id") REFERENCES "public"."base_vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_vehicle_engine_id_vehicle_engines_id_fk" FOREIGN KEY ("vehicle_engine_id") REFERENCES "public"."vehicle_engines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cart_items_vehicle_idx" ON "cart_items" USING btree ("vehicle_base_vehicle_id") WHERE "cart_items"."vehicle_base_vehicle_id" is not null;--> statement-breakpoint
CREATE INDEX "cart_items_vehicle_engine_idx" ON "cart_items" USING btree ("vehicle_engine_id") WHERE "cart_items"."vehicle_engine_id" is not null;