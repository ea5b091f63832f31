CREATE TABLE "shipment_lines" (
	"shipment_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"qty" integer NOT NULL,
	CONSTRAINT "shipment_lines_shipment_id_line_pk" PRIMARY KEY("shipment_id","line"),
	CONSTRAINT "shipment_lines_qty_positive" CHECK ("shipment_lines"."qty" > 0)
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"carrier" text,
	"tracking_number" text,
	"shipped_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipments_tracking_both_or_neither" CHECK (("shipments"."carrier" is null) = ("shipments"."tracking_number" is null))
);
--> statement-breakpoint
ALTER TABLE "shipment_lines" ADD CONSTRAINT "shipment_lines_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_lines" ADD CONSTRAINT "shipment_lines_order_id_line_order_items_order_id_line_fk" FOREIGN KEY ("order_id","line") REFERENCES "public"."order_items"("order_id","line") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipment_lines_order_idx" ON "shipment_lines" USING btree ("order_id","line");--> statement-breakpoint
CREATE INDEX "shipments_order_idx" ON "shipments" USING btree ("order_id","shipped_at");--> statement-breakpoint
-- Orders shipped before partial shipment: one shipment of every line, at the order's ship time.
INSERT INTO "shipments" ("order_id", "carrier", "tracking_number", "shipped_at")
  SELECT "id", "carrier", "tracking_number", coalesce("shipped_at", now())
  FROM "orders" WHERE "status" = 'shipped';--> statement-breakpoint
INSERT INTO "shipment_lines" ("shipment_id", "order_id", "line", "qty")
  SELECT s."id", i."order_id", i."line", i."qty"
  FROM "shipments" s JOIN "order_items" i ON i."order_id" = s."order_id";
