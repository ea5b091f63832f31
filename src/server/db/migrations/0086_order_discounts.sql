-- An order's discount code (docs/pricing.md "Discount codes"): the code as the buyer used it and
-- what it took off the order, and each line's share (what a refund of the line gives back is what
-- was paid for it: its price less that share). Older orders took none.
ALTER TABLE "orders" ADD COLUMN "discount_code" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_not_negative" CHECK ("discount_cents" >= 0);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_discount_within_line" CHECK ("discount_cents" >= 0 AND "discount_cents" <= "unit_price_cents"::bigint * "qty");
