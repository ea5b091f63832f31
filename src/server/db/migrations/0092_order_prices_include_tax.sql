-- Whether an order's prices include VAT (docs/tax.md "Prices with VAT included"): a consumer's
-- order in a market with VAT-inclusive prices keeps gross unit prices, shipping and total, and
-- its tax is the VAT they contain (shown as "Includes VAT (19 %) €x", never added). False for
-- every other order (net prices, tax added), as every order so far. A constant default: no table
-- rewrite.
ALTER TABLE "orders" ADD COLUMN "prices_include_tax" boolean DEFAULT false NOT NULL;
