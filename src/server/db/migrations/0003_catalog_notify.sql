-- Row-level: say whether only stock changed ('stock') or anything else ('catalog'). PostgreSQL
-- delivers identical notifications of one transaction once, so a bulk change is one message.
CREATE OR REPLACE FUNCTION notify_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - 'available_quantity') = (to_jsonb(OLD) - 'available_quantity') THEN
    PERFORM pg_notify('catalog_changed', 'stock');
  ELSE
    PERFORM pg_notify('catalog_changed', 'catalog');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_changed AFTER INSERT OR UPDATE OR DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION notify_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER products_truncated AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();
