-- Production lots (docs/warranty.md "Lots"): optionally, the lot number of the units a shipment
-- carried of an order line, entered at shipping or imported later, shown on a warranty claim.
ALTER TABLE "shipment_lines" ADD COLUMN "lot" text;
--> statement-breakpoint
ALTER TABLE "shipment_lines" ADD CONSTRAINT "shipment_lines_lot_valid" CHECK ("shipment_lines"."lot" ~ '^[A-Za-z0-9._/-]{1,40}$');
