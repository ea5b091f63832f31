-- Quantities by group (docs/pricing.md "Quantities by group"): each part's retail minimum (what a
-- retail customer or a visitor must buy at least; one unless the part says otherwise) and its
-- pack size (trade groups order in multiples of it; one: any quantity). The trade minimum stays
-- `minimum_order`.
ALTER TABLE "products" ADD COLUMN "retail_minimum" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "pack_size" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_retail_minimum_range" CHECK ("retail_minimum" between 1 and 10000000);
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_pack_size_range" CHECK ("pack_size" between 1 and 10000000);
--> statement-breakpoint
-- A buyer's group prices show on the catalog's cards, from the company price cache (which group
-- a customer is in, and whether it keeps trade minimums): a group renamed or switched, and a
-- customer's own group changed, say 'prices' as a company's group change does (migration 0079).
CREATE TRIGGER customer_groups_changed AFTER UPDATE OR DELETE ON customer_groups
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
--> statement-breakpoint
CREATE TRIGGER user_group_changed AFTER UPDATE OF customer_group_id ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
