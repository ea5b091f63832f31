import { type AnyPgColumn, customType, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { sql } from "./sql";

/** The row's id, a uuid PostgreSQL draws at insert (`uuid primary key default gen_random_uuid()`). */
export const uuidPrimaryKey = () => uuid("id").primaryKey().defaultRandom();

/** A required uuid naming another table's row (`not null references …`), `onDelete` as given. */
export const requiredUuidRef = (
  name: string,
  ref: () => AnyPgColumn,
  onDelete: "cascade" | "restrict",
) => uuid(name).notNull().references(ref, { onDelete });

/** A moment with its time zone (`timestamptz`), read as a Date; nullable until `.notNull()`. */
export const timestampTz = (name: string) => timestamp(name, { withTimezone: true });

/** A moment PostgreSQL sets at insert, the transaction's time (`timestamptz not null default now()`). */
export const timestampNow = (name: string) => timestampTz(name).notNull().defaultNow();

/** When the row was written and last changed (Better Auth's tables and the accounts'). */
export const timestamps = {
  createdAt: timestampNow("created_at"),
  updatedAt: timestampNow("updated_at"),
};

/** A postal address's columns, as the address book and a company's ship-to addresses keep them. */
export const postalAddressColumns = () => ({
  name: text("name").notNull(),
  company: text("company").notNull().default(""),
  line1: text("line1").notNull(),
  line2: text("line2").notNull().default(""),
  city: text("city").notNull(),
  /** State, province or county; a two-letter code for US and CA. */
  region: text("region").notNull().default(""),
  postalCode: text("postal_code").notNull(),
  /** ISO 3166-1 alpha-2. */
  country: text("country").notNull(),
  phone: text("phone").notNull(),
});

/**
 * The id of the transaction that last wrote the row (`xid8`, 64 bits, never wrapping), kept by
 * the column's default and a trigger (migration 0062): what the change cursors order by
 * (src/server/sync/). Read as its decimal text; never set by the application.
 */
const xid8 = customType<{ data: string }>({ dataType: () => "xid8" });
export const changeXid = () =>
  xid8("change_xid")
    .notNull()
    .default(sql`pg_current_xact_id()`);
