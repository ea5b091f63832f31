-- Discount codes (docs/pricing.md "Discount codes"), owned by the pricing module: the codes, each
-- order's use of one (the per-customer limit counts them), and the code a customer applied to
-- their cart. `used_count` is raised in the order's transaction only while below `usage_limit`.
CREATE TABLE "discount_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent" integer,
	"amount_cents" integer,
	"scope" text NOT NULL,
	"category" text,
	"product_id" uuid REFERENCES "products"("id") ON DELETE CASCADE,
	"min_subtotal_cents" integer DEFAULT 0 NOT NULL,
	"starts_on" date,
	"ends_on" date,
	"usage_limit" integer,
	"per_customer_limit" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"customer_group_id" uuid REFERENCES "customer_groups"("id") ON DELETE CASCADE,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_kind" CHECK (("kind" = 'percent' AND "percent" BETWEEN 1 AND 100 AND "amount_cents" IS NULL) OR
	  ("kind" = 'amount' AND "amount_cents" > 0 AND "percent" IS NULL)),
	CONSTRAINT "discount_codes_target" CHECK (("scope" = 'all' AND "category" IS NULL AND "product_id" IS NULL) OR
	  ("scope" = 'category' AND "category" IS NOT NULL AND "product_id" IS NULL) OR
	  ("scope" = 'part' AND "product_id" IS NOT NULL AND "category" IS NULL)),
	CONSTRAINT "discount_codes_dates_order" CHECK ("ends_on" >= "starts_on"),
	CONSTRAINT "discount_codes_used_within_limit" CHECK ("used_count" <= "usage_limit"),
	CONSTRAINT "discount_codes_min_nonnegative" CHECK ("min_subtotal_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_code_unique" ON "discount_codes" USING btree (lower("code"));
--> statement-breakpoint
CREATE INDEX "discount_codes_product_idx" ON "discount_codes" USING btree ("product_id");
--> statement-breakpoint
CREATE INDEX "discount_codes_group_idx" ON "discount_codes" USING btree ("customer_group_id");
--> statement-breakpoint
CREATE TABLE "discount_redemptions" (
	"order_id" uuid PRIMARY KEY NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"code_id" uuid REFERENCES "discount_codes"("id") ON DELETE SET NULL,
	"code" text NOT NULL,
	"user_id" text NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"discount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_redemptions_nonnegative" CHECK ("discount_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX "discount_redemptions_code_user_idx" ON "discount_redemptions" USING btree ("code_id","user_id");
--> statement-breakpoint
CREATE TABLE "cart_discount_codes" (
	"user_id" text PRIMARY KEY NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"code_id" uuid NOT NULL REFERENCES "discount_codes"("id") ON DELETE CASCADE,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cart_discount_codes_code_idx" ON "cart_discount_codes" USING btree ("code_id");
