import { text, timestamp } from "drizzle-orm/pg-core";

export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
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
