CREATE TABLE "placement_facts" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "placement_facts_one" CHECK ("placement_facts"."one")
);
--> statement-breakpoint
-- The version of what a placement decides on besides the stock and the customer's own rows
-- (docs/decisions/011-checkout-workflow.md, "Decided from memory"): a process may decide an order
-- from facts it read earlier, and its write goes ahead only while this is the version they had.
-- Moved on, in the changing transaction, by every change to those facts; never by stock.
INSERT INTO "placement_facts" DEFAULT VALUES;
--> statement-breakpoint
-- Once per transaction: a bulk import changes thousands of rows, and each update of the one row
-- in the same transaction would scan every version of it made before (they cannot be pruned
-- until the transaction ends). The flag is the transaction's own (set_config's is_local), undone
-- with a rolled-back savepoint.
CREATE FUNCTION move_placement_facts_on() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('placement_facts.moved', true), '') <> 'on' THEN
    UPDATE placement_facts SET version = version + 1;
    PERFORM set_config('placement_facts.moved', 'on', true);
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION placement_facts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM move_placement_facts_on();
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A product's change other than its stock (migration 0041's test) moves the version too.
CREATE OR REPLACE FUNCTION notify_product_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stock_put_back products;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    stock_put_back := NEW;
    stock_put_back.available_quantity := OLD.available_quantity;
    IF stock_put_back IS NOT DISTINCT FROM OLD THEN
      PERFORM pg_notify('catalog_changed', 'stock');
      RETURN NULL;
    END IF;
  END IF;
  PERFORM move_placement_facts_on();
  PERFORM pg_notify('catalog_changed', 'catalog');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_truncated_placement_facts AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
-- Shipping and tax: zones, their methods, tax rates.
CREATE TRIGGER shipping_zones_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shipping_zones
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
CREATE TRIGGER shipping_methods_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shipping_methods
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
CREATE TRIGGER tax_rates_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tax_rates
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
-- Trade: who belongs to a company (their prices, limits and tax facts), a company's tax facts and
-- list, the lists and their entries. A company's other columns (its credit used) change with its
-- orders and are not read from memory.
CREATE TRIGGER company_members_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON company_members
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
CREATE TRIGGER companies_placement_facts
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF price_list_id, tax_id, tax_id_country,
    tax_id_validated_at, tax_exemption_certificate ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
CREATE TRIGGER price_lists_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON price_lists
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
CREATE TRIGGER price_list_entries_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON price_list_entries
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
