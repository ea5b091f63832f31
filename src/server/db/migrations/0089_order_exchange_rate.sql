-- The exchange rate an order was priced with (docs/pricing.md "Markets and currencies"): one
-- unit of the store's currency in the order's currency. 1 for an order in the store's currency
-- (every order so far); kept with the order so that its invoice, credit notes and refunds never
-- change when a market's rate changes later. A constant default: no table rewrite.
ALTER TABLE "orders" ADD COLUMN "exchange_rate" numeric(14, 6) DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_exchange_rate_positive" CHECK ("exchange_rate" > 0);
