-- Company prices kept in memory (docs/company-prices-on-lists.md): every change to what a buyer's
-- list prices are says so on the catalog's channel with the payload 'prices', in the writing
-- transaction (delivered at its commit, once per transaction), so every process's listener
-- clears its company price cache. Statement-level: one message for a bulk import.
CREATE OR REPLACE FUNCTION notify_prices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', 'prices');
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A list's entries (put, removed, imported).
CREATE TRIGGER price_list_entries_changed AFTER INSERT OR UPDATE OR DELETE ON price_list_entries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
--> statement-breakpoint
CREATE TRIGGER price_list_entries_truncated AFTER TRUNCATE ON price_list_entries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
--> statement-breakpoint
-- A list's currency (only a list in the store's currency applies), or a list removed.
CREATE TRIGGER price_lists_changed AFTER UPDATE OF currency OR DELETE ON price_lists
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
--> statement-breakpoint
-- A company's list, or a company removed.
CREATE TRIGGER companies_price_list_changed AFTER UPDATE OF price_list_id OR DELETE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
--> statement-breakpoint
-- Who belongs to which company (joined, removed, moved; an account deleted removes its row).
CREATE TRIGGER company_members_changed AFTER INSERT OR UPDATE OF company_id, user_id OR DELETE ON company_members
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
--> statement-breakpoint
CREATE TRIGGER company_members_truncated AFTER TRUNCATE ON company_members
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
--> statement-breakpoint
CREATE TRIGGER price_lists_truncated AFTER TRUNCATE ON price_lists
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
--> statement-breakpoint
CREATE TRIGGER companies_truncated AFTER TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION notify_prices_changed();
