ALTER TABLE "orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tracking_both_or_neither" CHECK (("orders"."carrier" is null) = ("orders"."tracking_number" is null));