CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"img" text NOT NULL,
	"price_cents" integer NOT NULL,
	"minimum_order" integer NOT NULL,
	"available_quantity" integer NOT NULL,
	"short_description" text NOT NULL,
	"warranty_months" integer NOT NULL,
	"creator_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_price_nonnegative" CHECK ("products"."price_cents" >= 0),
	CONSTRAINT "products_minimum_order_positive" CHECK ("products"."minimum_order" >= 1),
	CONSTRAINT "products_stock_nonnegative" CHECK ("products"."available_quantity" >= 0),
	CONSTRAINT "products_warranty_nonnegative" CHECK ("products"."warranty_months" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"author_name" text NOT NULL,
	"email" text NOT NULL,
	"ratings" integer NOT NULL,
	"descreption" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_ratings_range" CHECK ("reviews"."ratings" between 1 and 5)
);
--> statement-breakpoint
CREATE INDEX "products_created_at_idx" ON "products" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "products_price_idx" ON "products" USING btree ("price_cents","id");--> statement-breakpoint
CREATE INDEX "products_name_idx" ON "products" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "products_search_trgm_idx" ON "products" USING gin ((lower(name || ' ' || short_description)) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "reviews_created_at_idx" ON "reviews" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);