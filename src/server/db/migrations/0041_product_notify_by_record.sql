-- A product's change says whether only its stock changed ('stock') or anything else ('catalog'),
-- as migration 0003's trigger did, but by comparing the new row, its stock put back, with the old
-- one, instead of both rows as JSON. to_jsonb serialised the whole row (its search document
-- included) twice for every stock update: 18 µs a row against 4 measured (issue 24; an order
-- takes stock from one row, a 5-line checkout from five). A row compares column by column with
-- each type's equality, so products must not get a column of type json, which has none (jsonb
-- has one): every update of a product would then fail. `notify_catalog_changed()` stays for the
-- statement-level triggers (truncate, cross-references, fitments).
CREATE FUNCTION notify_product_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
  PERFORM pg_notify('catalog_changed', 'catalog');
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER products_changed ON products;
--> statement-breakpoint
CREATE TRIGGER products_changed AFTER INSERT OR UPDATE OR DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION notify_product_changed();
