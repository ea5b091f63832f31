-- The catalog a manufacturer feeds (issue 50, docs/attributes.md and docs/imports.md): a part's
-- brand (the Auto Care brand code its PIES and ACES files carry, and the label shown), typed
-- attributes defined per category with each product's values, and a part's digital assets
-- (more pictures, installation guides) by address. Every change is a catalog change.
ALTER TABLE "products" ADD COLUMN "brand_code" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "brand" text;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_brand_code_valid" CHECK ("products"."brand_code" ~ '^[A-Z0-9]{1,20}$');--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_brand_length" CHECK (char_length("products"."brand") between 1 and 60);--> statement-breakpoint
CREATE INDEX "products_brand_code_idx" ON "products" USING btree ("brand_code") WHERE "products"."brand_code" is not null;--> statement-breakpoint
CREATE TABLE "attribute_definitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"unit" text,
	"choices" text[] DEFAULT '{}'::text[] NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"filterable" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attribute_definitions_kind_valid" CHECK ("attribute_definitions"."kind" in ('number', 'text', 'choice')),
	CONSTRAINT "attribute_definitions_name_length" CHECK (char_length("attribute_definitions"."name") between 1 and 60),
	CONSTRAINT "attribute_definitions_unit_only_numbers" CHECK ("attribute_definitions"."unit" is null or ("attribute_definitions"."kind" = 'number' and char_length("attribute_definitions"."unit") between 1 and 12)),
	CONSTRAINT "attribute_definitions_choices_only_choice" CHECK (("attribute_definitions"."kind" = 'choice') = (cardinality("attribute_definitions"."choices") > 0))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "attribute_definitions_category_name_unique" ON "attribute_definitions" USING btree ("category",lower("name"));--> statement-breakpoint
CREATE TABLE "product_attributes" (
	"product_id" uuid NOT NULL,
	"attribute_id" uuid NOT NULL,
	"number_value" numeric,
	"text_value" text,
	CONSTRAINT "product_attributes_product_id_attribute_id_pk" PRIMARY KEY("product_id","attribute_id"),
	CONSTRAINT "product_attributes_one_value" CHECK (("product_attributes"."number_value" is null) <> ("product_attributes"."text_value" is null)),
	CONSTRAINT "product_attributes_text_length" CHECK (char_length("product_attributes"."text_value") between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "product_attributes" ADD CONSTRAINT "product_attributes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_attributes" ADD CONSTRAINT "product_attributes_attribute_id_attribute_definitions_id_fk" FOREIGN KEY ("attribute_id") REFERENCES "public"."attribute_definitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_attributes_number_idx" ON "product_attributes" USING btree ("attribute_id","number_value","product_id") WHERE "product_attributes"."number_value" is not null;--> statement-breakpoint
CREATE INDEX "product_attributes_text_idx" ON "product_attributes" USING btree ("attribute_id","text_value","product_id") WHERE "product_attributes"."text_value" is not null;--> statement-breakpoint
CREATE TABLE "product_assets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_assets_kind_valid" CHECK ("product_assets"."kind" in ('image', 'document')),
	CONSTRAINT "product_assets_title_length" CHECK (char_length("product_assets"."title") between 1 and 120),
	CONSTRAINT "product_assets_url_https" CHECK ("product_assets"."url" ~ '^https://' and char_length("product_assets"."url") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "product_assets" ADD CONSTRAINT "product_assets_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_assets_product_idx" ON "product_assets" USING btree ("product_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "product_assets_product_url_unique" ON "product_assets" USING btree ("product_id","url");--> statement-breakpoint
ALTER TABLE "catalog_imports" DROP CONSTRAINT "catalog_imports_kind_valid";--> statement-breakpoint
ALTER TABLE "catalog_imports" ADD CONSTRAINT "catalog_imports_kind_valid" CHECK ("catalog_imports"."kind" in ('aces', 'pies'));--> statement-breakpoint
CREATE TRIGGER attribute_definitions_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON attribute_definitions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER product_attributes_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_attributes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER product_assets_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_assets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();
