DROP INDEX "products_search_fts_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_document" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
-- The stored search document (docs/decisions/009-catalog-search.md): name A, description and
-- category B (english words), our part number and the cross-reference numbers normalised C,
-- the cross-references' brands D (letters and digits only, lower-case: one word each).
CREATE FUNCTION product_search_document(p_id uuid, p_name text, p_description text,
    p_category text, p_part_number text) RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, p_name), 'A')
      || setweight(to_tsvector('english'::regconfig, p_description || ' ' || p_category), 'B')
      || setweight(to_tsvector('simple'::regconfig,
           upper(regexp_replace(p_part_number, '[^A-Za-z0-9]', '', 'g')) || ' '
           || coalesce(string_agg(r.number_normalized, ' '), '')), 'C')
      || setweight(to_tsvector('simple'::regconfig,
           coalesce(string_agg(lower(regexp_replace(r.brand, '[^[:alnum:]]', '', 'g')), ' '), '')), 'D')
  FROM product_cross_references r WHERE r.product_id = p_id
$$;--> statement-breakpoint
CREATE FUNCTION products_search_document_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document := product_search_document(NEW.id, NEW.name, NEW.short_description,
    NEW.category, NEW.part_number);
  RETURN NEW;
END $$;--> statement-breakpoint
-- Only the searched columns: an order changing the stock does not rebuild the document.
CREATE TRIGGER products_search_document_insert BEFORE INSERT ON products
  FOR EACH ROW EXECUTE FUNCTION products_search_document_refresh();--> statement-breakpoint
-- An edit refreshes the document AFTER the row is written, never in a BEFORE UPDATE trigger: with
-- one, PostgreSQL counts every stored generated column (part_number_normalized, which a unique
-- index keys) as possibly changed, so even a stock update would take the row FOR UPDATE and
-- deadlock against orders whose lines hold KEY SHARE on it (the 200-order concurrency test).
CREATE FUNCTION products_search_document_after_edit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_document = product_search_document(p.id, p.name,
      p.short_description, p.category, p.part_number)
    WHERE p.id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER products_search_document_update
  AFTER UPDATE OF name, short_description, category, part_number ON products
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name
    OR OLD.short_description IS DISTINCT FROM NEW.short_description
    OR OLD.category IS DISTINCT FROM NEW.category
    OR OLD.part_number IS DISTINCT FROM NEW.part_number)
  EXECUTE FUNCTION products_search_document_after_edit();--> statement-breakpoint
CREATE FUNCTION product_cross_references_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_document = product_search_document(p.id, p.name,
      p.short_description, p.category, p.part_number)
    WHERE p.id IN (SELECT product_id FROM changed_rows);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER product_cross_references_search_document_insert AFTER INSERT ON product_cross_references
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_cross_references_search_document();--> statement-breakpoint
CREATE TRIGGER product_cross_references_search_document_delete AFTER DELETE ON product_cross_references
  REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_cross_references_search_document();--> statement-breakpoint
CREATE FUNCTION product_cross_references_search_document_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET search_document = product_search_document(p.id, p.name,
      p.short_description, p.category, p.part_number)
    WHERE p.id IN (SELECT product_id FROM old_rows UNION SELECT product_id FROM new_rows);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER product_cross_references_search_document_update AFTER UPDATE ON product_cross_references
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_cross_references_search_document_update();--> statement-breakpoint
UPDATE products p SET search_document = product_search_document(p.id, p.name,
    p.short_description, p.category, p.part_number);--> statement-breakpoint
CREATE INDEX "products_search_document_idx" ON "products" USING gin ("search_document");--> statement-breakpoint
CREATE INDEX "products_part_number_trgm_idx" ON "products" USING gin ("part_number_normalized" gin_trgm_ops);--> statement-breakpoint
CREATE TABLE "product_import_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_by" text NOT NULL,
	"status" text NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"creates" integer DEFAULT 0 NOT NULL,
	"updates" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_import_jobs_status_valid" CHECK ("product_import_jobs"."status" in ('running', 'done', 'failed'))
);
