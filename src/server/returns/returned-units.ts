import { and, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { returnLines, returnRequests } from "./tables";

/** The returns still counting against a line's quantity: every return not refused. */
export const activeReturn = ne(returnRequests.status, "refused");

/**
 * A core return (reason `core`, docs/core-charges.md) sends back the old part for the deposit:
 * it counts against the line's cores (one per unit bought), never against its parts.
 */
const isCore = eq(returnRequests.reason, "core");
const isPart = ne(returnRequests.reason, "core");

/**
 * Units of each of an order's lines already in a return (not refused): parts returns, or with
 * `core` the cores sent back for their deposit. What the returns may still take and what a
 * warranty claim may still claim both start from it.
 */
export async function returnedByLine(
  tx: DbOrTx,
  orderId: string,
  core = false,
): Promise<Map<number, number>> {
  const rows = await tx
    .select({ line: returnLines.line, qty: sql<number>`sum(${returnLines.qty})::int` })
    .from(returnLines)
    .innerJoin(returnRequests, eq(returnRequests.id, returnLines.returnId))
    .where(and(eq(returnRequests.orderId, orderId), activeReturn, core ? isCore : isPart))
    .groupBy(returnLines.line);
  return new Map(rows.map((r) => [r.line, r.qty]));
}
