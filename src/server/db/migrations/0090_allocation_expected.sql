-- The checkout's one-statement write may promise a delivery window (docs/shipping.md "The
-- promise kept with the order"): it is worked out before the write from the allocation preview
-- (inventory/allocation-preview.ts), so the statement must place the parts exactly where the
-- preview said. `p_expect`: the allocation expected, as `product:location:qty` joined by commas in
-- product then location order; when the plan differs, nothing is written (placement_changed) and
-- the checkout places the order in its locked transaction, which records the promise from what
-- it allocated. Otherwise as in 0080.
DROP FUNCTION allocate_stock(uuid, uuid[], int[], int[], text, text);
--> statement-breakpoint
CREATE FUNCTION allocate_stock(p_order uuid, p_ids uuid[], p_qtys int[], p_totals int[],
                               p_country text, p_region text, p_expect text DEFAULT NULL)
RETURNS int
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  allocated int;
  got text;
  whole boolean := coalesce((SELECT whole_order FROM allocation_policy), false);
BEGIN
  WITH wanted AS (
    SELECT * FROM unnest(p_ids, p_qtys, p_totals) AS w(product_id, qty, total_after)
  ),
  elsewhere AS (
    SELECT s.product_id, s.location_id, s.available
      FROM location_stock s JOIN wanted w ON w.product_id = s.product_id
  ),
  options AS (
    SELECT e.product_id, e.location_id, e.available FROM elsewhere e
    UNION ALL
    SELECT w.product_id, h.id,
           w.total_after + w.qty
             - coalesce((SELECT sum(e.available) FROM elsewhere e
                          WHERE e.product_id = w.product_id), 0)::int
      FROM wanted w CROSS JOIN stock_locations h WHERE h.is_home
  ),
  -- The active locations that have every line in full (the policy asks for one when one has it).
  complete AS (
    SELECT o.location_id
      FROM options o
      JOIN wanted w ON w.product_id = o.product_id
      JOIN stock_locations l ON l.id = o.location_id AND l.active
     WHERE whole AND o.available >= w.qty
     GROUP BY o.location_id
    HAVING count(*) = (SELECT count(*) FROM wanted)
  ),
  ranked AS (
    SELECT o.product_id, o.location_id, o.available, w.qty,
           coalesce(sum(o.available) OVER (
             PARTITION BY o.product_id
             ORDER BY o.location_id IN (SELECT location_id FROM complete) DESC,
                      coalesce(p_country = ANY(l.serves_countries)
                               AND (cardinality(l.serves_regions) = 0
                                    OR p_region = ANY(l.serves_regions)), false) DESC,
                      l.priority, l.is_home DESC, l.id
             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
      FROM options o
      JOIN stock_locations l ON l.id = o.location_id
      JOIN wanted w ON w.product_id = o.product_id
     WHERE l.active AND o.available > 0
  ),
  plan AS (
    SELECT product_id, location_id, least(available, qty - before)::int AS qty
      FROM ranked WHERE qty > before
  ),
  moved AS (
    UPDATE location_stock s SET available = s.available - p.qty
      FROM plan p
     WHERE s.product_id = p.product_id AND s.location_id = p.location_id
  ),
  kept AS (
    INSERT INTO stock_allocations AS a (order_id, product_id, location_id, qty)
    SELECT p_order, product_id, location_id, qty FROM plan
    ON CONFLICT (order_id, product_id, location_id) DO UPDATE SET qty = a.qty + excluded.qty
  )
  SELECT coalesce(sum(qty), 0)::int,
         string_agg(product_id || ':' || location_id || ':' || qty, ',' ORDER BY product_id, location_id)
    INTO allocated, got FROM plan;
  IF allocated <> (SELECT coalesce(sum(q), 0) FROM unnest(p_qtys) AS q)
     OR (p_expect IS NOT NULL AND p_expect IS DISTINCT FROM got) THEN
    PERFORM placement_changed();
  END IF;
  RETURN allocated;
END $$;
