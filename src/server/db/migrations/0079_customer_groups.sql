-- Customer groups and their price rules (docs/pricing.md "Customer groups and price rules"):
-- retail, garage, fleet and distributor to start (admins add more); every company belongs to
-- one (garage unless an admin chooses), customers without a company are retail. The seeded ids
-- are fixed: the retail group is the one the code names (it cannot be removed).
CREATE TABLE "customer_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"trade_minimums" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "customer_groups_name_unique" ON "customer_groups" USING btree (lower("name"));
--> statement-breakpoint
INSERT INTO "customer_groups" ("id", "name", "trade_minimums") VALUES
  ('00000000-0000-4000-8000-000000000001', 'Retail', false),
  ('00000000-0000-4000-8000-000000000002', 'Garage', true),
  ('00000000-0000-4000-8000-000000000003', 'Fleet', true),
  ('00000000-0000-4000-8000-000000000004', 'Distributor', true);
--> statement-breakpoint
CREATE TABLE "price_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group_id" uuid NOT NULL REFERENCES "customer_groups"("id") ON DELETE CASCADE,
	"percent" integer NOT NULL,
	"scope" text NOT NULL,
	"category" text,
	"brand" text,
	"product_id" uuid REFERENCES "products"("id") ON DELETE CASCADE,
	"starts_on" date,
	"ends_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_rules_percent_range" CHECK ("percent" between 1 and 100),
	CONSTRAINT "price_rules_target" CHECK (
	  ("scope" = 'category' AND "category" IS NOT NULL AND "brand" IS NULL AND "product_id" IS NULL) OR
	  ("scope" = 'brand' AND "brand" IS NOT NULL AND "category" IS NULL AND "product_id" IS NULL) OR
	  ("scope" = 'part' AND "product_id" IS NOT NULL AND "category" IS NULL AND "brand" IS NULL)),
	CONSTRAINT "price_rules_dates_order" CHECK ("ends_on" >= "starts_on")
);
--> statement-breakpoint
CREATE INDEX "price_rules_group_idx" ON "price_rules" USING btree ("group_id");
--> statement-breakpoint
CREATE INDEX "price_rules_product_idx" ON "price_rules" USING btree ("product_id");
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "customer_group_id" uuid DEFAULT '00000000-0000-4000-8000-000000000002' NOT NULL
  REFERENCES "customer_groups"("id") ON DELETE RESTRICT;
--> statement-breakpoint
CREATE INDEX "companies_customer_group_idx" ON "companies" USING btree ("customer_group_id");
--> statement-breakpoint
-- What a buyer pays changes: the placement's facts move on (migration 0042) and every process
-- hears 'prices' (migration 0034).
CREATE TRIGGER customer_groups_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON customer_groups
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
CREATE TRIGGER price_rules_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON price_rules
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
CREATE TRIGGER companies_group_placement_facts AFTER UPDATE OF customer_group_id ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
CREATE TRIGGER price_rules_changed AFTER INSERT OR UPDATE OR DELETE ON price_rules
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
--> statement-breakpoint
CREATE TRIGGER companies_group_changed AFTER UPDATE OF customer_group_id ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
