-- Delivery estimates from where the parts ship (docs/shipping.md "Delivery estimates"): each
-- location's dispatch time (working days from the order to the parcel leaving, and optionally
-- the hour, UTC, after which an order counts from the next working day), and each shipping
-- method's transit time in working days (null: no estimate of its own).
ALTER TABLE "stock_locations" ADD COLUMN "dispatch_days" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "stock_locations" ADD COLUMN "cutoff_hour" integer;
--> statement-breakpoint
ALTER TABLE "stock_locations" ADD CONSTRAINT "stock_locations_dispatch_valid"
  CHECK ("dispatch_days" >= 0 AND "dispatch_days" <= 60
         AND ("cutoff_hour" IS NULL OR ("cutoff_hour" >= 1 AND "cutoff_hour" <= 23)));
--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD COLUMN "transit_min_days" integer;
--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD COLUMN "transit_max_days" integer;
--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD CONSTRAINT "shipping_methods_transit_valid"
  CHECK (("transit_min_days" IS NULL AND "transit_max_days" IS NULL)
         OR ("transit_min_days" >= 0 AND "transit_max_days" >= "transit_min_days"
             AND "transit_max_days" <= 90));
