CREATE SEQUENCE "public"."orders_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 100001 CACHE 1;--> statement-breakpoint
ALTER TABLE "tax_rates" DROP CONSTRAINT "tax_rates_place_unique";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "length_mm" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "width_mm" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "height_mm" integer;--> statement-breakpoint
-- Orders placed before numbers existed are numbered in the order they were placed (a column added
-- with its default would number them in the table's physical order), then new ones from the sequence.
ALTER TABLE "orders" ADD COLUMN "number" integer;--> statement-breakpoint
UPDATE "orders" o SET "number" = n.number
  FROM (SELECT id, 100000 + row_number() OVER (ORDER BY created_at, id) AS number FROM orders) n
 WHERE n.id = o.id;--> statement-breakpoint
SELECT setval('orders_number_seq', coalesce((SELECT max("number") FROM orders), 100000) + 1, false);--> statement-breakpoint
ALTER SEQUENCE "public"."orders_number_seq" OWNED BY "orders"."number";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "number" SET DEFAULT nextval('orders_number_seq');--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tax_rates" ADD COLUMN "postal_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_number_unique" UNIQUE("number");--> statement-breakpoint
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_place_unique" UNIQUE("country","region","postal_code");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_dimensions_positive" CHECK ("products"."length_mm" > 0 and "products"."width_mm" > 0 and "products"."height_mm" > 0);