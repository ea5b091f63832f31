import { sql } from "../db/sql";
import { bigint, boolean, check, pgTable } from "drizzle-orm/pg-core";

/**
 * One row: the version of everything a placement decides on besides the stock and the customer's
 * own rows (products' facts, shipping zones and methods, tax rates, companies, their members and
 * price lists). Triggers move it on (migration 0042); a placement decided from memory writes only
 * while it is the version it decided on (docs/decisions/011-checkout-workflow.md, "Decided from
 * memory").
 */
export const placementFacts = pgTable(
  "placement_facts",
  {
    one: boolean("one").primaryKey().default(true),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("placement_facts_one", sql`${t.one}`)],
);
