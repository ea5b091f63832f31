-- allocate_stock's way by key (migration 0096) with fewer statements when a line's first
-- location cannot take it (bench orders: each statement a plpgsql function runs has its own
-- executor start, locks and end). The first location in the ranking is still tried with one
-- update; when it has too few, or the home location comes first, the line's units at every
-- location are read once (one keyed read of location_stock) and the rest of the ranking is
-- decided from that read, instead of a read of the location tried and, at the home location, a
-- sum of the others. A location the read says has it all is updated with the same guard
-- (`available >= qty`); a line the update cannot take goes to allocate_stock_ranked, as a split
-- line does. The allocations are the same as 0096's (inventory/allocation-paths.test.ts).
CREATE OR REPLACE FUNCTION allocate_stock(p_order uuid, p_ids uuid[], p_qtys int[], p_totals int[],
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
  -- The line's units at every location but the home one, once read (read: true).
  read boolean;
  kept_at uuid[];
  kept int[];
  elsewhere int;
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
    read := false;
    FOR k IN 1 .. coalesce(cardinality(locs), 0) LOOP
      IF NOT read AND NOT homes[k] THEN
        -- The first location in the ranking: take the line there if it has it all.
        UPDATE location_stock SET available = available - p_qtys[i]
         WHERE product_id = p_ids[i] AND location_id = locs[k] AND available >= p_qtys[i];
        placed := FOUND;
      END IF;
      IF NOT placed AND NOT read THEN
        SELECT array_agg(e.location_id), array_agg(e.available), coalesce(sum(e.available), 0)
          INTO kept_at, kept, elsewhere
          FROM location_stock e WHERE e.product_id = p_ids[i];
        read := true;
      END IF;
      IF NOT placed THEN
        IF homes[k] THEN
          -- The home location's stock on sale: the product's total less the other locations'.
          on_sale := p_totals[i] + p_qtys[i] - elsewhere;
          placed := on_sale >= p_qtys[i];
        ELSE
          on_sale := coalesce(kept[array_position(kept_at, locs[k])], 0);
          IF on_sale >= p_qtys[i] THEN
            UPDATE location_stock SET available = available - p_qtys[i]
             WHERE product_id = p_ids[i] AND location_id = locs[k] AND available >= p_qtys[i];
            -- Changed since it was read: the ranked statement reads it all again.
            EXIT lines WHEN NOT FOUND;
            placed := true;
          END IF;
        END IF;
      END IF;
      IF placed THEN
        at := at || locs[k];
        at_home := at_home || homes[k];
        total := total + p_qtys[i];
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
