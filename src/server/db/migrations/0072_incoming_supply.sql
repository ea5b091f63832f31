-- Incoming supply (docs/inventory.md "Incoming supply"): production runs of the plant and
-- purchase orders coming to a location, with the date they are expected. Received units go on
-- sale at that location; what is still to come is qty - received, which later promises dates to
-- backordered lines (open supply, first expected first).
CREATE TABLE "incoming_supply" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"product_id" uuid NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"location_id" uuid NOT NULL REFERENCES "stock_locations"("id") ON DELETE restrict,
	"qty" integer NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"expected_on" date NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incoming_supply_kind_valid" CHECK ("incoming_supply"."kind" in ('production', 'purchase_order')),
	CONSTRAINT "incoming_supply_status_valid" CHECK ("incoming_supply"."status" in ('open', 'received', 'cancelled')),
	CONSTRAINT "incoming_supply_reference_present" CHECK (length(btrim("incoming_supply"."reference")) > 0),
	CONSTRAINT "incoming_supply_qty_positive" CHECK ("incoming_supply"."qty" > 0),
	CONSTRAINT "incoming_supply_received_valid" CHECK ("incoming_supply"."received" >= 0 AND "incoming_supply"."received" <= "incoming_supply"."qty"),
	CONSTRAINT "incoming_supply_received_all" CHECK ("incoming_supply"."status" <> 'received' OR "incoming_supply"."received" = "incoming_supply"."qty")
);
--> statement-breakpoint
CREATE INDEX "incoming_supply_product_idx" ON "incoming_supply" USING btree ("product_id","status","expected_on");
--> statement-breakpoint
CREATE INDEX "incoming_supply_location_idx" ON "incoming_supply" USING btree ("location_id");
--> statement-breakpoint
CREATE INDEX "incoming_supply_status_idx" ON "incoming_supply" USING btree ("status","expected_on");
--> statement-breakpoint
-- A run or PO brings a part once (received or still coming): a file imported twice, or a line
-- entered twice, is refused instead of promising the same units twice.
CREATE UNIQUE INDEX "incoming_supply_reference_idx" ON "incoming_supply" USING btree ("kind",upper("reference"),"product_id") WHERE "incoming_supply"."status" <> 'cancelled';
