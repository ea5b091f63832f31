-- The market a quote was requested in (docs/quotes.md "In the buyer's market", docs/pricing.md
-- "Markets and currencies"): its currency, the market's rate then (one unit of the store's
-- currency in the quote's), the market's code and rounding rule (null: the default market, the
-- store's currency), and whether its prices include VAT (a consumer's quote in a market whose
-- consumers see VAT included) with the rate they included then. The lines' seen and quoted
-- prices are in that currency; its acceptance is an order in that currency at that rate. A quote
-- asked before this migration has no currency (null: the store's) and rate 1, as every quote so
-- far. Constant defaults and nullable columns: no table rewrite.
ALTER TABLE "quotes" ADD COLUMN "currency" text;
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "exchange_rate" numeric(14, 6) DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "market_code" text;
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "rounding" text;
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "prices_include_tax" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "tax_rate_millipercent" integer;
--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_exchange_rate_positive" CHECK ("exchange_rate" > 0);
--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_market_whole" CHECK (("market_code" is null) = ("rounding" is null));
