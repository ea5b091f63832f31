import { and, eq } from "drizzle-orm";
import type { FitmentReport } from "../../contract/returns";
import type { DbOrTx } from "../db/database";
import { orderItems } from "../orders/tables";
import { activeReturn } from "./returned-units";
import { returnLines, returnRequests } from "./tables";

/** Admin: "did not fit" returns per product, with the vehicles customers named. */
export async function fitmentReport(db: DbOrTx): Promise<FitmentReport> {
  const rows = await db
    .select({
      productId: orderItems.productId,
      productName: orderItems.productName,
      partNumber: orderItems.partNumber,
      returnId: returnRequests.id,
      vehicle: returnRequests.vehicle,
      qty: returnLines.qty,
    })
    .from(returnRequests)
    .innerJoin(returnLines, eq(returnLines.returnId, returnRequests.id))
    .innerJoin(
      orderItems,
      and(eq(orderItems.orderId, returnRequests.orderId), eq(orderItems.line, returnLines.line)),
    )
    .where(and(eq(returnRequests.reason, "did_not_fit"), activeReturn));
  const byProduct = new Map<string, FitmentReport[number] & { ids: Set<string> }>();
  for (const r of rows) {
    const key = r.productId ?? `name:${r.productName}`;
    let p = byProduct.get(key);
    if (!p) {
      p = {
        productId: r.productId,
        productName: r.productName,
        partNumber: r.partNumber,
        returns: 0,
        units: 0,
        vehicles: [],
        ids: new Set(),
      };
      byProduct.set(key, p);
    }
    if (!p.ids.has(r.returnId)) {
      p.ids.add(r.returnId);
      p.returns += 1;
      const vehicle = r.vehicle?.trim() || "(vehicle not given)";
      const v = p.vehicles.find((x) => x.vehicle.toLowerCase() === vehicle.toLowerCase());
      if (v) v.returns += 1;
      else p.vehicles.push({ vehicle, returns: 1 });
    }
    p.units += r.qty;
  }
  return [...byProduct.values()]
    .map(({ ids: _ids, ...p }) => ({
      ...p,
      vehicles: p.vehicles.sort((a, b) => b.returns - a.returns),
    }))
    .sort((a, b) => b.returns - a.returns || a.productName.localeCompare(b.productName));
}
