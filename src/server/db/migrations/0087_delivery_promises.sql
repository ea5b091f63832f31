-- The delivery window promised when an order was placed through the cart's checkout with a
-- method that has transit days (docs/shipping.md "The promise kept with the order"): from the
-- order's actual allocations and its backorders' dates as the placement wrote them, in the
-- placement's transaction. The order page and the order-placed email say it.
CREATE TABLE "delivery_promises" (
	"order_id" uuid PRIMARY KEY NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"method" text NOT NULL,
	"parcels" jsonb NOT NULL,
	"undated" integer DEFAULT 0 NOT NULL,
	"words" text NOT NULL,
	"promised_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_promises_undated_valid" CHECK ("undated" >= 0)
);
