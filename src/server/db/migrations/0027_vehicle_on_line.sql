ALTER TABLE "order_items" ADD COLUMN "vehicle_base_vehicle_id" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "vehicle_engine_id" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "vehicle_label" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_vehicle_base_vehicle_id_base_vehicles_id_fk" FOREIGN KEY ("vehicle_base_vehicle_id") REFERENCES "public"."base_vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_vehicle_engine_id_vehicle_engines_id_fk" FOREIGN KEY ("vehicle_engine_id") REFERENCES "public"."vehicle_engines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_items_vehicle_idx" ON "order_items" USING btree ("vehicle_base_vehicle_id") WHERE "order_items"."vehicle_base_vehicle_id" is not null;--> statement-breakpoint
CREATE INDEX "order_items_vehicle_engine_idx" ON "order_items" USING btree ("vehicle_engine_id") WHERE "order_items"."vehicle_engine_id" is not null;