-- Most orders take each line whole from the first location, in allocate_stock's order, that has
-- any of it (docs/inventory.md "Allocation"). allocate_stock now does that case itself, a few
-- statements by key (the ranked locations once, then per line an update of one location's row),
-- and hands every other case to the ranked statement of migration 0090, renamed
-- allocate_stock_ranked: a line split across locations, the one-location policy on an order of
-- several lines, a line with no stock anywhere. The same allocation either way
-- (inventory/allocation-paths.test.ts compares the two): the location it takes a line from is the
-- first of the ranking with units on sale, and it has them all. The ranked statement's generic
-- plan reads every location_stock row of a small table, and its window and sorts are most of an
-- order's time in PostgreSQL (bench orders).
ALTER FUNCTION allocate_stock(uuid, uuid[], int[], int[], text, text, text)
  RENAME TO allocate_stock_ranked;
--> statement-breakpoint
CREATE FUNCTION allocate_stock(p_order uuid, p_ids uuid[], p_qtys int[], p_totals int[],
                               p_country text, p_region text, p_expect text DEFAULT NULL)
RETURNS int
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  n int := coalesce(cardinality(p_ids), 0);
  -- The active locations in the order lines are taken from (as allocate_stock_ranked ranks them
  -- when no location has the whole order).
  locs uuid[];
  homes boolean[];
  -- Where each line went, in line order, while every line goes whole to its first location.
  at uuid[] := '{}';
  at_home boolean[] := '{}';
  total int := 0;
  on_sale int;
  placed boolean;
BEGIN
  IF n = 0 OR (n > 1 AND coalesce((SELECT whole_order FROM allocation_policy), false)) THEN
    RETURN allocate_stock_ranked(p_order, p_ids, p_qtys, p_totals, p_country, p_region, p_expect);
  END IF;
  SELECT array_agg(l.id ORDER BY r.serves DESC, l.priority, l.is_home DESC, l.id),
         array_agg(l.is_home ORDER BY r.serves DESC, l.priority, l.is_home DESC, l.id)
    INTO locs, homes
    FROM stock_locations l
    CROSS JOIN LATERAL (
      SELECT coalesce(p_country = ANY(l.serves_countries)
                      AND (cardinality(l.serves_regions) = 0 OR p_region = ANY(l.serves_regions)),
                      false) AS serves) r
   WHERE l.active;
  <<lines>>
  FOR i IN 1 .. n LOOP
    EXIT WHEN p_qtys[i] IS NULL OR p_qtys[i] <= 0;
    placed := false;
    FOR k IN 1 .. coalesce(cardinality(locs), 0) LOOP
      IF homes[k] THEN
        -- The home location's stock on sale: the product's total less the other locations'.
        on_sale := p_totals[i] + p_qtys[i]
                   - coalesce((SELECT sum(e.available) FROM location_stock e
                                WHERE e.product_id = p_ids[i]), 0);
      ELSE
        UPDATE location_stock SET available = available - p_qtys[i]
         WHERE product_id = p_ids[i] AND location_id = locs[k] AND available >= p_qtys[i];
        placed := FOUND;
        IF NOT placed THEN
          on_sale := coalesce((SELECT available FROM location_stock
                                WHERE product_id = p_ids[i] AND location_id = locs[k]), 0);
        END IF;
      END IF;
      IF placed OR on_sale >= p_qtys[i] THEN
        at := at || locs[k];
        at_home := at_home || homes[k];
        total := total + p_qtys[i];
        placed := true;
        EXIT;
      END IF;
      -- The first location with some of it has too few: the line is split (the ranked path).
      EXIT lines WHEN on_sale > 0;
    END LOOP;
    EXIT WHEN NOT placed;
  END LOOP;
  IF cardinality(at) < n THEN
    -- Put back what the lines before took, and let the ranked statement allocate the order.
    FOR k IN 1 .. cardinality(at) LOOP
      CONTINUE WHEN at_home[k];
      UPDATE location_stock SET available = available + p_qtys[k]
       WHERE product_id = p_ids[k] AND location_id = at[k];
    END LOOP;
    RETURN allocate_stock_ranked(p_order, p_ids, p_qtys, p_totals, p_country, p_region, p_expect);
  END IF;
  INSERT INTO stock_allocations AS a (order_id, product_id, location_id, qty)
  SELECT p_order, u.product_id, u.location_id, u.qty
    FROM unnest(p_ids, at, p_qtys) AS u(product_id, location_id, qty)
  ON CONFLICT (order_id, product_id, location_id) DO UPDATE SET qty = a.qty + excluded.qty;
  IF p_expect IS NOT NULL AND p_expect IS DISTINCT FROM
     (SELECT string_agg(u.product_id || ':' || u.location_id || ':' || u.qty, ','
                        ORDER BY u.product_id, u.location_id)
        FROM unnest(p_ids, at, p_qtys) AS u(product_id, location_id, qty)) THEN
    PERFORM placement_changed();
  END IF;
  RETURN total;
END $$;
