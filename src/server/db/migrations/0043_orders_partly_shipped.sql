ALTER TABLE "orders" ADD COLUMN "partly_shipped_at" timestamp with time zone;--> statement-breakpoint
-- A paid order with a shipment recorded is partly shipped (a whole one would be `shipped`): the
-- order row now says so itself (orders/state.ts), from its first parcel's time.
UPDATE "orders" o SET "partly_shipped_at" = s.first_at
  FROM (SELECT order_id, min(shipped_at) AS first_at FROM shipments GROUP BY order_id) s
 WHERE s.order_id = o.id AND o.status = 'paid';
