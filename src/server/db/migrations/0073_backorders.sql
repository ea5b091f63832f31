-- Backorders and promised dates (docs/inventory.md "Backorders"). A product takes backorders
-- when it has a policy row: units beyond its stock on sale may be ordered up to what open supply
-- still brings (not yet promised to earlier backorders), or without bound when it has a lead time.
CREATE TABLE "backorder_policies" (
	"product_id" uuid PRIMARY KEY NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"lead_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "backorder_policies_lead_days_valid" CHECK ("lead_days" IS NULL OR ("lead_days" >= 1 AND "lead_days" <= 730))
);
--> statement-breakpoint
-- The buyer's choice at checkout: the whole order in one go, or what is on the shelf now.
ALTER TABLE "orders" ADD COLUMN "ship_complete" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- The units of an order line not on the shelf when it was placed. `waiting` are still to be
-- allocated (first placed, first served, as supply arrives); `cancelled` will not be; the rest
-- were allocated to a location (stock_allocations) and ship as any other. `lead_on` is the date
-- the lead time promised at placement (kept: it does not move by itself); `promised_on` is the date
-- promised now: the open supply's that covers the line in the queue, else `lead_on`.
CREATE TABLE "backorders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL REFERENCES "orders"("id") ON DELETE cascade DEFERRABLE INITIALLY DEFERRED,
	"line" integer NOT NULL,
	"product_id" uuid NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"qty" integer NOT NULL,
	"waiting" integer NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"lead_on" date,
	"promised_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "backorders_order_line_unique" UNIQUE ("order_id", "line"),
	CONSTRAINT "backorders_qty_positive" CHECK ("qty" > 0),
	CONSTRAINT "backorders_counts_valid" CHECK ("waiting" >= 0 AND "cancelled" >= 0 AND "waiting" + "cancelled" <= "qty")
);
--> statement-breakpoint
CREATE INDEX "backorders_queue_idx" ON "backorders" USING btree ("product_id", "created_at", "id") WHERE "waiting" > 0;
--> statement-breakpoint
-- Dates promised to a product's waiting backorders, first placed first: each line gets the
-- expected date of the open supply whose running total covers the line's running total, else
-- its lead-time date. Returns the lines whose date changed (their orders are told).
CREATE FUNCTION promise_backorders(p_product uuid)
RETURNS TABLE (backorder_id uuid, order_id uuid, was date, now_on date)
LANGUAGE sql VOLATILE AS $$
  WITH supply AS (
    SELECT s.expected_on,
           sum(s.qty - s.received) OVER (ORDER BY s.expected_on, s.id) AS upto
      FROM incoming_supply s
     WHERE s.product_id = p_product AND s.status = 'open' AND s.qty > s.received
  ),
  queue AS (
    SELECT b.id, b.promised_on, b.lead_on,
           sum(b.waiting) OVER (ORDER BY b.created_at, b.id) AS upto
      FROM backorders b
     WHERE b.product_id = p_product AND b.waiting > 0
  ),
  dated AS (
    SELECT q.id, q.promised_on AS was,
           coalesce((SELECT s.expected_on FROM supply s WHERE s.upto >= q.upto
                      ORDER BY s.upto LIMIT 1), q.lead_on) AS now_on
      FROM queue q
  )
  UPDATE backorders b SET promised_on = d.now_on
    FROM dated d
   WHERE b.id = d.id AND b.promised_on IS DISTINCT FROM d.now_on
  RETURNING b.id, b.order_id, d.was, d.now_on
$$;
--> statement-breakpoint
-- Units that came on sale at a location go to the product's waiting backorders first, first
-- placed first served: allocated to their orders there and taken off sale. The caller holds the
-- product's row lock. Returns how many units were allocated.
CREATE FUNCTION fill_backorders(p_product uuid, p_location uuid, p_units int) RETURNS int
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  filled int;
  home boolean;
BEGIN
  IF p_units <= 0 THEN
    RETURN 0;
  END IF;
  WITH queue AS (
    SELECT b.id, b.order_id, b.waiting,
           sum(b.waiting) OVER (ORDER BY b.created_at, b.id) - b.waiting AS before
      FROM backorders b
     WHERE b.product_id = p_product AND b.waiting > 0
  ),
  given AS (
    SELECT q.id, q.order_id, least(q.waiting, p_units - q.before)::int AS qty
      FROM queue q WHERE q.before < p_units
  ),
  lowered AS (
    UPDATE backorders b SET waiting = b.waiting - g.qty FROM given g WHERE b.id = g.id
  ),
  kept AS (
    INSERT INTO stock_allocations AS a (order_id, product_id, location_id, qty)
    SELECT g.order_id, p_product, p_location, sum(g.qty)::int FROM given g GROUP BY g.order_id
    ON CONFLICT (order_id, product_id, location_id) DO UPDATE SET qty = a.qty + excluded.qty
  )
  SELECT coalesce(sum(qty), 0)::int INTO filled FROM given;
  IF filled > 0 THEN
    SELECT is_home INTO home FROM stock_locations WHERE id = p_location;
    IF NOT home THEN
      UPDATE location_stock SET available = available - filled
       WHERE product_id = p_product AND location_id = p_location;
    END IF;
    UPDATE products SET available_quantity = available_quantity - filled WHERE id = p_product;
  END IF;
  RETURN filled;
END $$;
--> statement-breakpoint
-- What a product offers `p_units` more units on backorder at: the date the open supply (after
-- the backorders waiting before them) or else the lead time promises (null: neither covers them),
-- and the most units it takes without a lead time (null: no bound). No row: no backorders.
CREATE FUNCTION backorder_offer(p_product uuid, p_units int)
RETURNS TABLE (on_date date, most int)
LANGUAGE sql STABLE AS $$
  WITH waiting AS (
    SELECT coalesce(sum(b.waiting), 0)::int AS n FROM backorders b
     WHERE b.product_id = p_product AND b.waiting > 0
  ),
  supply AS (
    SELECT s.expected_on, sum(s.qty - s.received) OVER (ORDER BY s.expected_on, s.id) AS upto
      FROM incoming_supply s
     WHERE s.product_id = p_product AND s.status = 'open' AND s.qty > s.received
  )
  SELECT coalesce((SELECT s.expected_on FROM supply s WHERE s.upto >= w.n + p_units
                    ORDER BY s.upto LIMIT 1),
                  current_date + p.lead_days),
         CASE WHEN p.lead_days IS NULL
              THEN greatest(0, coalesce((SELECT max(s.upto) FROM supply s), 0) - w.n)::int END
    FROM backorder_policies p CROSS JOIN waiting w
   WHERE p.product_id = p_product
$$;
