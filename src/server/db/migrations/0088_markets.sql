-- Markets and currencies (docs/pricing.md "Markets and currencies"): a market is a group of
-- countries with a currency, an exchange rate from the store's currency (admin-entered, six
-- decimals at most) and a rounding rule; consumers there may see prices with VAT included. One
-- market is the default: the store's currency at rate 1. A country belongs to one market at most.
CREATE TABLE "markets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"prices_include_tax" boolean DEFAULT false NOT NULL,
	"rate" numeric(14, 6) NOT NULL,
	"rounding" text DEFAULT 'cent' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "markets_rate_positive" CHECK ("rate" > 0),
	CONSTRAINT "markets_default_rate" CHECK (NOT "is_default" OR ("rate" = 1 AND "active"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "markets_code_unique" ON "markets" USING btree ("code");
--> statement-breakpoint
CREATE UNIQUE INDEX "markets_name_unique" ON "markets" USING btree (lower("name"));
--> statement-breakpoint
CREATE UNIQUE INDEX "markets_one_default" ON "markets" USING btree ("is_default") WHERE "is_default";
--> statement-breakpoint
CREATE TABLE "market_countries" (
	"country" text PRIMARY KEY NOT NULL,
	"market_id" uuid NOT NULL REFERENCES "markets"("id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "market_countries_market_idx" ON "market_countries" USING btree ("market_id");
--> statement-breakpoint
-- The seeded markets (fixed ids): the United States is the default (the store's currency, USD).
INSERT INTO "markets" ("id", "code", "name", "currency", "prices_include_tax", "rate", "rounding", "is_default") VALUES
  ('00000000-0000-4000-8000-0000000000a1', 'US', 'United States', 'USD', false, 1, 'cent', true),
  ('00000000-0000-4000-8000-0000000000a2', 'EU', 'Europe', 'EUR', true, 0.92, 'cent', false),
  ('00000000-0000-4000-8000-0000000000a3', 'GB', 'United Kingdom', 'GBP', true, 0.79, 'cent', false);
--> statement-breakpoint
INSERT INTO "market_countries" ("country", "market_id") VALUES
  ('US', '00000000-0000-4000-8000-0000000000a1'),
  ('DE', '00000000-0000-4000-8000-0000000000a2'),
  ('FR', '00000000-0000-4000-8000-0000000000a2'),
  ('IT', '00000000-0000-4000-8000-0000000000a2'),
  ('ES', '00000000-0000-4000-8000-0000000000a2'),
  ('NL', '00000000-0000-4000-8000-0000000000a2'),
  ('BE', '00000000-0000-4000-8000-0000000000a2'),
  ('AT', '00000000-0000-4000-8000-0000000000a2'),
  ('IE', '00000000-0000-4000-8000-0000000000a2'),
  ('PT', '00000000-0000-4000-8000-0000000000a2'),
  ('FI', '00000000-0000-4000-8000-0000000000a2'),
  ('LU', '00000000-0000-4000-8000-0000000000a2'),
  ('GB', '00000000-0000-4000-8000-0000000000a3');
