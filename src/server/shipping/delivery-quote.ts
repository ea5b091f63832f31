import type { DeliveryEstimate } from "../../contract/shipping";
import type { DbOrTx } from "../db/database";
import { previewAllocation, type PreviewLine } from "../inventory/allocation-preview";
import { deliveryEstimate } from "./delivery";
import type { Place, ShippingOptionPriced } from "./rates";

/**
 * Each shipping option's delivery estimate for an order going to `place` (docs/shipping.md
 * "Delivery estimates"): where its parts would ship from now (the inventory's allocation
 * preview, the rules `allocate_stock` places with), each location's dispatch days and the
 * method's transit days. Reads, writes nothing; one preview for every option.
 */
export async function deliveryByMethod(
  tx: DbOrTx,
  lines: readonly PreviewLine[],
  place: Place,
  options: readonly ShippingOptionPriced[],
  now: Date,
): Promise<Map<string, DeliveryEstimate | null>> {
  const dated = options.filter(
    (o) => o.method.transitMinDays != null && o.method.transitMaxDays != null,
  );
  if (dated.length === 0 || lines.length === 0) return new Map();
  const preview = await previewAllocation(tx, lines, place);
  // Units beyond the shelf of a part that takes no backorders cannot be ordered: no date for them.
  const backorders = preview.lines
    .filter((l) => l.takesBackorders)
    .map((l) => ({ units: l.backordered, promisedOn: l.promisedOn }));
  return new Map(
    dated.map((o) => [o.method.id, deliveryEstimate(now, preview.origins, backorders, o.method)]),
  );
}
