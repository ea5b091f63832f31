-- Markets kept in memory (docs/pricing.md "Markets and currencies", "The market chosen"): every
-- change to a market or its countries says 'markets' on the catalog's channel, in the writing
-- transaction (delivered at its commit), so every process's market cache and the answers priced
-- in a market are cleared; it says 'prices' too (what a buyer pays in a market changed: the
-- company price cache drops), and the placement's facts move on (migration 0042).
CREATE OR REPLACE FUNCTION notify_markets_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', 'markets');
  PERFORM pg_notify('catalog_changed', 'prices');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER markets_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON markets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_markets_changed();
--> statement-breakpoint
CREATE TRIGGER market_countries_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_countries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_markets_changed();
--> statement-breakpoint
CREATE TRIGGER markets_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON markets
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
--> statement-breakpoint
CREATE TRIGGER market_countries_placement_facts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_countries
  FOR EACH STATEMENT EXECUTE FUNCTION placement_facts_changed();
