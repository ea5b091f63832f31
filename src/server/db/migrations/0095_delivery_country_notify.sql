-- The customers' default delivery countries kept in memory (docs/pricing.md "The market chosen":
-- a signed-in customer without a `?market=` or cookie prices in their default address's market,
-- `DeliveryCountries` in pricing/delivery-countries.ts): every change to a customer's addresses
-- says 'addresses:<user id>' on the catalog's channel, in the writing transaction (delivered at
-- its commit; one message per customer however many rows), so every process forgets that
-- customer's country; a TRUNCATE says 'addresses' (forget every one).
CREATE OR REPLACE FUNCTION notify_addresses_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('catalog_changed', 'addresses');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('catalog_changed', 'addresses:' || OLD.user_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('catalog_changed', 'addresses:' || NEW.user_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER addresses_changed AFTER INSERT OR UPDATE OR DELETE ON addresses
  FOR EACH ROW EXECUTE FUNCTION notify_addresses_changed();
--> statement-breakpoint
CREATE TRIGGER addresses_truncated AFTER TRUNCATE ON addresses
  FOR EACH STATEMENT EXECUTE FUNCTION notify_addresses_changed();
--> statement-breakpoint
-- A VAT-inclusive market's consumers see a country's rate before checkout (docs/tax.md "Prices
-- with VAT included"), and the countries' rates are kept in memory with the markets: a change to
-- the tax rates says 'markets' (the markets' cache and the answers priced in a market go).
CREATE OR REPLACE FUNCTION notify_tax_rates_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', 'markets');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tax_rates_markets_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tax_rates
  FOR EACH STATEMENT EXECUTE FUNCTION notify_tax_rates_changed();
