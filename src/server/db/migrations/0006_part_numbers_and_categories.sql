CREATE TABLE "product_cross_references" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"brand" text NOT NULL,
	"number" text NOT NULL,
	"number_normalized" text GENERATED ALWAYS AS (upper(regexp_replace(number, '[^A-Za-z0-9]', '', 'g'))) STORED NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_cross_references_kind_valid" CHECK ("product_cross_references"."kind" in ('OE', 'competitor', 'superseded'))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "part_number" text;--> statement-breakpoint
-- Existing products get a part number of ours in the order they were added (PW-000001, ...).
UPDATE "products" p SET "part_number" = 'PW-' || lpad(n.rn::text, 6, '0')
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn FROM "products") n
  WHERE n.id = p.id;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "part_number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "part_number_normalized" text GENERATED ALWAYS AS (upper(regexp_replace(part_number, '[^A-Za-z0-9]', '', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "category" text;--> statement-breakpoint
-- Existing products get the category their name says, "Other" where it says none.
UPDATE "products" SET "category" = CASE
  WHEN name ~* 'brake|caliper|rotor' THEN 'Brakes'
  WHEN name ~* 'filter' THEN 'Filters'
  WHEN name ~* 'spark|ignition|coil' THEN 'Ignition'
  WHEN name ~* 'shock|strut|spring|bearing|suspension' THEN 'Suspension'
  WHEN name ~* 'steering|tie rod|rack' THEN 'Steering'
  WHEN name ~* 'alternator|starter|battery|sensor' THEN 'Electrical'
  WHEN name ~* 'light|lamp|bulb' THEN 'Lighting'
  WHEN name ~* 'radiator|water pump|thermostat|coolant' THEN 'Cooling'
  WHEN name ~* 'fuel' THEN 'Fuel'
  WHEN name ~* 'clutch' THEN 'Clutch'
  WHEN name ~* 'wiper' THEN 'Wipers'
  WHEN name ~* 'timing|belt|gasket|piston|engine' THEN 'Engine'
  ELSE 'Other' END;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "category" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "product_cross_references" ADD CONSTRAINT "product_cross_references_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_cross_references_product_idx" ON "product_cross_references" USING btree ("product_id","position");--> statement-breakpoint
CREATE INDEX "product_cross_references_number_idx" ON "product_cross_references" USING btree ("number_normalized" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "products_search_fts_idx" ON "products" USING gin ((to_tsvector('english'::regconfig, name || ' ' || short_description || ' ' || category)));--> statement-breakpoint
CREATE UNIQUE INDEX "products_part_number_normalized_unique" ON "products" USING btree ("part_number_normalized");--> statement-breakpoint
CREATE INDEX "products_part_number_prefix_idx" ON "products" USING btree ("part_number_normalized" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "products_category_idx" ON "products" USING btree ("category","id");--> statement-breakpoint
-- A cross-reference change is a catalog change: every process's read cache hears of it.
CREATE TRIGGER product_cross_references_changed AFTER INSERT OR UPDATE OR DELETE ON product_cross_references
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();
