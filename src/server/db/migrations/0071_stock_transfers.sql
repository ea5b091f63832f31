-- Transfers of stock on sale between locations (docs/inventory.md "Counts and transfers"): who
-- moved how many units of which product from where to where, and when. The admin's id and email
-- are copied, so a row outlives the account.
CREATE TABLE "stock_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"from_location_id" uuid NOT NULL REFERENCES "stock_locations"("id") ON DELETE restrict,
	"to_location_id" uuid NOT NULL REFERENCES "stock_locations"("id") ON DELETE restrict,
	"qty" integer NOT NULL,
	"admin_id" text NOT NULL,
	"admin_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_transfers_qty_positive" CHECK ("stock_transfers"."qty" > 0),
	CONSTRAINT "stock_transfers_two_locations" CHECK ("stock_transfers"."from_location_id" <> "stock_transfers"."to_location_id")
);
--> statement-breakpoint
CREATE INDEX "stock_transfers_product_idx" ON "stock_transfers" USING btree ("product_id","created_at" DESC);
--> statement-breakpoint
CREATE INDEX "stock_transfers_created_idx" ON "stock_transfers" USING btree ("created_at" DESC);
