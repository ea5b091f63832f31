-- Backorders' dates told to the buyer (docs/inventory.md "Backorders"): `told_on` is the date the
-- buyer was last told (at placement, by the order's pages; later, by email). A waiting line whose
-- promised date differs from it is emailed by the "backorder-dates" job, which then records it:
-- the transaction that moves ten thousand dates writes no email itself.
ALTER TABLE "backorders" ADD COLUMN "told" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "backorders" ADD COLUMN "told_on" date;
--> statement-breakpoint
CREATE INDEX "backorders_untold_idx" ON "backorders" USING btree ("order_id") WHERE "waiting" > 0 AND "told" AND "promised_on" IS DISTINCT FROM "told_on";
