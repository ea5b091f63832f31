-- Units shipped per part, month of sale and production lot (docs/warranty.md "The report"): what
-- the warranty report counts as sold, kept by the shipments module as it ships and sets lots, so
-- the report sums a few thousand rows instead of every shipped line. Filled from the shipments
-- so far. A warranty claim's $0 replacement is not a sale: it is left out.
CREATE TABLE "shipped_units" (
	"product_id" uuid NOT NULL,
	"month" date NOT NULL,
	"lot" text DEFAULT '' NOT NULL,
	"qty" integer NOT NULL,
	"part_number" text,
	"product_name" text NOT NULL,
	CONSTRAINT "shipped_units_product_id_month_lot_pk" PRIMARY KEY("product_id","month","lot"),
	CONSTRAINT "shipped_units_qty_nonnegative" CHECK ("shipped_units"."qty" >= 0)
);
--> statement-breakpoint
INSERT INTO "shipped_units" ("product_id", "month", "lot", "qty", "part_number", "product_name")
SELECT oi."product_id", date_trunc('month', o."created_at" at time zone 'UTC')::date,
       coalesce(sl."lot", ''), sum(sl."qty")::int, max(oi."part_number"), max(oi."product_name")
  FROM "shipment_lines" sl
  JOIN "order_items" oi ON oi."order_id" = sl."order_id" AND oi."line" = sl."line"
  JOIN "orders" o ON o."id" = sl."order_id"
 WHERE oi."product_id" IS NOT NULL AND o."paid_with" IS DISTINCT FROM 'warranty'
 GROUP BY 1, 2, 3;
