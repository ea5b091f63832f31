-- A part's public page is /parts/<slug> (docs/catalog.md "Part pages"): the part number and the
-- name in lower-case letters and digits joined by hyphens, as `partSlug` in src/contract/paths.ts
-- computes it (a test holds the two equal). Kept by PostgreSQL, so no write can forget it.
ALTER TABLE "products" ADD COLUMN "slug" text GENERATED ALWAYS AS (lower(btrim(regexp_replace("part_number" || '-' || "name", '[^A-Za-z0-9]+', '-', 'g'), '-'))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "products_slug_idx" ON "products" USING btree ("slug","id");
