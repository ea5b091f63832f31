ALTER TABLE "order_items" ADD COLUMN "core_deposit_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "core_deposit_cents" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_core_deposit_not_negative" CHECK ("order_items"."core_deposit_cents" >= 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_core_deposit_positive" CHECK ("products"."core_deposit_cents" > 0);