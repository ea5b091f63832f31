CREATE TABLE "low_stock_emails" (
	"day" date PRIMARY KEY NOT NULL,
	"product_count" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "reorder_level" integer;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_reorder_level_nonnegative" CHECK ("products"."reorder_level" >= 0);