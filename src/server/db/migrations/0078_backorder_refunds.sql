-- A buyer or an admin cancels a line's units on backorder (docs/inventory.md "Cancelling
-- backordered units"): the order keeps its lines, and the money of those units goes back as a
-- refund of kind 'backorder', naming the line and how many units it credits.
ALTER TABLE "refunds" ADD COLUMN "line" integer;
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "units" integer;
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_backorder_line" CHECK (("kind" = 'backorder') = ("line" IS NOT NULL AND "units" IS NOT NULL AND "units" > 0));
