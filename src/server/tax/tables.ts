import { sql } from "../db/sql";
import { boolean, check, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { uuidPrimaryKey } from "../db/columns";

/** Tax rates by country, and by region where a region has its own (US states). */
export const taxRates = pgTable(
  "tax_rates",
  {
    id: uuidPrimaryKey(),
    country: text("country").notNull(),
    /** Empty: the whole country (where no rate of the region applies). */
    region: text("region").notNull().default(""),
    /**
     * Empty: the whole region (or country). Else the postal codes it covers: one code (`10001`),
     * a prefix (`100*`) or a range of codes of one length (`10001-10299`); docs/tax.md.
     */
    postalCode: text("postal_code").notNull().default(""),
    name: text("name").notNull(),
    /** Thousandths of a percent: 8.875 % is 8875. */
    rateMillipercent: integer("rate_millipercent").notNull(),
    appliesToShipping: boolean("applies_to_shipping").notNull().default(true),
  },
  (t) => [
    unique("tax_rates_place_unique").on(t.country, t.region, t.postalCode),
    check("tax_rates_rate_range", sql`${t.rateMillipercent} between 0 and 100000`),
  ],
);
